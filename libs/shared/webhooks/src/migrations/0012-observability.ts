import type { Migration } from '@wms/platform';

/**
 * Correlation and metrics: an event remembers the request (and W3C trace) that caused it, so a
 * webhook delivery's log line joins the gateway's; a partial index keeps the "subscriptions with
 * failing deliveries" gauge cheap (it holds only deliveries being retried after an error).
 */
export const observability: Migration = {
  name: '0012-observability',
  async up({ sequelize }) {
    await sequelize.query(`
      ALTER TABLE events ADD COLUMN request_id text, ADD COLUMN trace_id text;
      CREATE INDEX webhook_deliveries_retrying_idx ON webhook_deliveries (subscription_id)
        WHERE status = 'pending' AND last_error IS NOT NULL;
    `);
  },
};
