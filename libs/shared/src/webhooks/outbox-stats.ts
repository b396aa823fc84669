import type { Database } from '../db/index.js';
import type { OutboxStats } from '../metrics/index.js';

/**
 * The outbox's state for the metrics: each part reads a small partial index (unrelayed events,
 * deliveries retrying after an error), so a scrape stays cheap however large the tables grow.
 */
export async function readOutboxStats(db: Database): Promise<OutboxStats> {
  const [[row]] = (await db.sequelize.query(
    `SELECT (SELECT count(*) FROM events WHERE relayed_at IS NULL)::int AS backlog,
            COALESCE((SELECT EXTRACT(EPOCH FROM now() - occurred_at) FROM events
                       WHERE relayed_at IS NULL ORDER BY seq LIMIT 1), 0)::float AS "oldestEventAgeSeconds",
            (SELECT count(DISTINCT subscription_id) FROM webhook_deliveries
              WHERE status = 'pending' AND last_error IS NOT NULL)::int AS "failingSubscriptions"`,
  )) as [OutboxStats[], unknown];
  return { ...row!, oldestEventAgeSeconds: Math.max(0, row!.oldestEventAgeSeconds) };
}
