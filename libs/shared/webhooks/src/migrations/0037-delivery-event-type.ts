import type { Migration } from '@wms/platform';

/** Rows the backfill updates per statement: each batch commits on its own and locks only its rows. */
const BACKFILL_BATCH = 10_000;

/**
 * A delivery carries its event's type, so a subscription's deliveries filtered by type are one range of
 * `(subscription_id, event, created_at DESC, id DESC)` instead of every delivery of that type joined
 * before the newest are taken; and the failed deliveries (failed for good, or retrying after a failed
 * attempt) have a partial index by subscription and creation time, so the overview counts a day of failures
 * without reading a day of successes.
 *
 * Order, so writers go on throughout:
 * 1. the column is added without a default (a catalogue change);
 * 2. a trigger fills it on insert when a writer leaves it out (a process of the previous version still
 *    running while this one migrates, a hand-written INSERT);
 * 3. the existing rows are filled in batches, each its own transaction;
 * 4. NOT NULL through a CHECK added NOT VALID and validated (neither blocks writers; PostgreSQL then sets NOT
 *    NULL without scanning the table again, under a brief exclusive lock), the CHECK dropped after;
 * 5. the indexes are built CONCURRENTLY.
 */
export const deliveryEventType: Migration = {
  name: '0037-delivery-event-type',
  async up({ sequelize }) {
    await sequelize.query(`
      ALTER TABLE webhook_deliveries ADD COLUMN IF NOT EXISTS event text;

      CREATE OR REPLACE FUNCTION webhook_deliveries_fill_event() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        SELECT e.event INTO NEW.event FROM events e WHERE e.id = NEW.event_id;
        RETURN NEW;
      END $$;
      DROP TRIGGER IF EXISTS webhook_deliveries_fill_event ON webhook_deliveries;
      CREATE TRIGGER webhook_deliveries_fill_event BEFORE INSERT ON webhook_deliveries
        FOR EACH ROW WHEN (NEW.event IS NULL) EXECUTE FUNCTION webhook_deliveries_fill_event();
    `);
    for (;;) {
      const [[batch]] = (await sequelize.query(
        `WITH filled AS (
           UPDATE webhook_deliveries d SET event = e.event
             FROM events e
            WHERE e.id = d.event_id
              AND d.id IN (SELECT id FROM webhook_deliveries WHERE event IS NULL LIMIT ${BACKFILL_BATCH})
           RETURNING 1)
         SELECT count(*)::int AS updated FROM filled`,
      )) as [Array<{ updated: number }>, unknown];
      const updated = batch?.updated ?? 0;
      if (updated < BACKFILL_BATCH) break;
    }
    await sequelize.query(`
      ALTER TABLE webhook_deliveries DROP CONSTRAINT IF EXISTS webhook_deliveries_event_present;
      ALTER TABLE webhook_deliveries
        ADD CONSTRAINT webhook_deliveries_event_present CHECK (event IS NOT NULL) NOT VALID;
    `);
    await sequelize.query('ALTER TABLE webhook_deliveries VALIDATE CONSTRAINT webhook_deliveries_event_present');
    await sequelize.query(`
      ALTER TABLE webhook_deliveries ALTER COLUMN event SET NOT NULL;
      ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_event_present;
    `);
    await sequelize.query(
      `CREATE INDEX CONCURRENTLY IF NOT EXISTS webhook_deliveries_event_idx
         ON webhook_deliveries (subscription_id, event, created_at DESC, id DESC)`,
    );
    await sequelize.query(
      `CREATE INDEX CONCURRENTLY IF NOT EXISTS webhook_deliveries_failed_idx
         ON webhook_deliveries (subscription_id, created_at) INCLUDE (updated_at)
         WHERE status = 'failed' OR (status = 'pending' AND attempts > 0)`,
    );
  },
};
