import type { Migration } from '@wms/platform';

/**
 * Key and webhook lifecycles. A subscription keeps its previous signing secret until a grace period
 * ends (both sign meanwhile), and records since when its deliveries have done nothing but fail and when
 * and why it was disabled. A delivery carries its queue priority (recovered and replayed deliveries
 * queue behind live traffic). An API key keeps the hash of its previous raw key until a roll's grace
 * period ends. `webhook.disabled` events may have no tenant (a cross-tenant subscription was disabled).
 */
export const lifecycles: Migration = {
  name: '0009-lifecycles',
  async up({ sequelize }) {
    await sequelize.query(`
      ALTER TABLE webhook_subscriptions
        ADD COLUMN previous_secret_sealed text,
        ADD COLUMN previous_secret_expires_at timestamptz,
        ADD COLUMN secret_rotated_at timestamptz,
        ADD COLUMN failing_since timestamptz,
        ADD COLUMN disabled_at timestamptz;
      CREATE INDEX webhook_subscriptions_failing_idx ON webhook_subscriptions (failing_since)
        WHERE failing_since IS NOT NULL AND active;

      ALTER TABLE webhook_deliveries ADD COLUMN priority integer NOT NULL DEFAULT 0;

      ALTER TABLE events DROP CONSTRAINT events_check;
      ALTER TABLE events ADD CONSTRAINT events_tenant_check
        CHECK (tenant_id IS NOT NULL OR event IN ('webhook.test', 'webhook.disabled'));

      ALTER TABLE api_keys
        ADD COLUMN previous_key_hash text,
        ADD COLUMN previous_key_prefix text,
        ADD COLUMN previous_key_expires_at timestamptz,
        ADD COLUMN rolled_at timestamptz;
      CREATE UNIQUE INDEX api_keys_previous_key_hash_idx ON api_keys (previous_key_hash)
        WHERE previous_key_hash IS NOT NULL;
    `);
  },
};
