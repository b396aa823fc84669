import type { Migration } from '@wms/platform';

/**
 * Subscriber controls beyond the filter:
 * - `max_deliveries_per_second`: the most deliveries a subscription is sent per second over every worker;
 * - `ordered`: one document's deliveries go out one at a time, in `sequence` order;
 * - an ordered subscription's deliveries carry their event's document and sequence (the events library's
 *   `0046-event-sequences`, applied just before, gives events theirs), so the worker finds
 *   an earlier pending one of the same document through a small partial index;
 * - the delay a receiver asked for with Retry-After, per attempt.
 */
export const webhookRateOrder: Migration = {
  name: '0046-webhook-rate-order',
  async up({ sequelize }) {
    await sequelize.query(`
      ALTER TABLE webhook_subscriptions
        ADD COLUMN IF NOT EXISTS max_deliveries_per_second integer
          CHECK (max_deliveries_per_second IS NULL OR max_deliveries_per_second > 0),
        ADD COLUMN IF NOT EXISTS ordered boolean NOT NULL DEFAULT false;

      ALTER TABLE webhook_deliveries
        ADD COLUMN IF NOT EXISTS document_key text,
        ADD COLUMN IF NOT EXISTS sequence bigint;
      CREATE INDEX IF NOT EXISTS webhook_deliveries_ordered_pending_idx
        ON webhook_deliveries (subscription_id, document_key, sequence)
        WHERE status = 'pending' AND document_key IS NOT NULL;

      ALTER TABLE webhook_delivery_attempts ADD COLUMN IF NOT EXISTS retry_after_ms integer;
    `);
  },
};
