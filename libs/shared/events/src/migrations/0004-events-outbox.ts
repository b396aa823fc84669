import type { Migration } from '@wms/platform';

/**
 * The transactional outbox (`events`). `seq` orders events as they were written (relay order);
 * `feed_position` is handed out by the relay, one pass at a time, after the event's transaction has
 * committed, so the reconciliation feed's cursor never skips an event that committed late (a plain sequence
 * can be committed out of order).
 *
 * Split off `0004-events-webhooks`, which created this table beside the webhook tables before each library
 * created its own, and placed just before it: on a fresh database it creates the table as that one did; on
 * a database that ran that one, every statement finds its object there and does nothing.
 */
export const eventsOutbox: Migration = {
  name: '0004-events-outbox',
  async up({ sequelize }) {
    await sequelize.query(`
      CREATE TABLE IF NOT EXISTS events (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        seq bigserial NOT NULL UNIQUE,
        tenant_id uuid REFERENCES tenants(id),
        event text NOT NULL,
        data jsonb NOT NULL,
        occurred_at timestamptz NOT NULL DEFAULT now(),
        relayed_at timestamptz,
        feed_position bigint UNIQUE,
        CHECK (tenant_id IS NOT NULL OR event = 'webhook.test')
      );
      CREATE SEQUENCE IF NOT EXISTS events_feed_position_seq OWNED BY events.feed_position;
      CREATE INDEX IF NOT EXISTS events_unrelayed_idx ON events (seq) WHERE relayed_at IS NULL;
      CREATE INDEX IF NOT EXISTS events_feed_idx ON events (tenant_id, feed_position) WHERE feed_position IS NOT NULL;
    `);
  },
};
