import type { Migration } from '@wms/platform';

/**
 * Every event's document (`document_key`: the order, the ASN, the stock position) and its `sequence`, a
 * number that grows with each event of that document, given from `document_sequences` in the event's
 * transaction (the counter row's lock orders the writers of one document).
 *
 * Split off `0046-webhook-rate-order`, which made these beside the webhook tables' changes before each
 * library created its own, and placed just before it: on a database that ran that one it does nothing.
 */
export const eventSequences: Migration = {
  name: '0046-event-sequences',
  async up({ sequelize }) {
    await sequelize.query(`
      CREATE TABLE IF NOT EXISTS document_sequences (
        document_key text PRIMARY KEY,
        last_sequence bigint NOT NULL
      );
      ALTER TABLE events
        ADD COLUMN IF NOT EXISTS document_key text,
        ADD COLUMN IF NOT EXISTS sequence bigint;
    `);
  },
};
