import type { Migration } from '@wms/platform';

/**
 * Webhook subscriptions and their deliveries. It created the outbox (`events`) too when it shipped; that
 * part is the events library's `0004-events-outbox` now, applied just before it (a database that ran this
 * migration whole keeps its name recorded, and the split-off part does nothing there).
 */
export const eventsWebhooks: Migration = {
  name: '0004-events-webhooks',
  async up({ sequelize }) {
    await sequelize.query(`
      CREATE TABLE webhook_subscriptions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        tenant_id uuid REFERENCES tenants(id),
        url text NOT NULL,
        events text[] NOT NULL CHECK (cardinality(events) > 0),
        description text NOT NULL DEFAULT '',
        secret_sealed text NOT NULL,
        active boolean NOT NULL DEFAULT true,
        disabled_reason text,
        created_by uuid REFERENCES users(id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX webhook_subscriptions_tenant_idx ON webhook_subscriptions (tenant_id);

      CREATE TABLE webhook_deliveries (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        event_id uuid NOT NULL REFERENCES events(id) ON DELETE CASCADE,
        subscription_id uuid NOT NULL REFERENCES webhook_subscriptions(id) ON DELETE CASCADE,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed')),
        attempts integer NOT NULL DEFAULT 0,
        generation integer NOT NULL DEFAULT 0,
        enqueued_at timestamptz,
        last_status_code integer,
        last_error text,
        next_attempt_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (event_id, subscription_id)
      );
      CREATE INDEX webhook_deliveries_unqueued_idx ON webhook_deliveries (created_at) WHERE enqueued_at IS NULL;
      CREATE INDEX webhook_deliveries_subscription_idx ON webhook_deliveries (subscription_id, created_at DESC);

      CREATE TABLE webhook_delivery_attempts (
        id bigserial PRIMARY KEY,
        delivery_id uuid NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
        generation integer NOT NULL,
        status_code integer,
        latency_ms double precision NOT NULL,
        error text,
        response_body text,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX webhook_delivery_attempts_delivery_idx ON webhook_delivery_attempts (delivery_id, id);
    `);
  },
};
