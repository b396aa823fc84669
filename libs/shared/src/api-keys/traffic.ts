import type { Database } from '../db/index.js';

/** One bucket of a key's traffic: every request in it, and those answered with status 400 or above. */
export interface TrafficPoint {
  at: Date;
  requests: number;
  errors: number;
}

export interface KeyTraffic {
  /** The last 24 hours, one bucket per UTC hour, oldest first; the last bucket is the hour now running. */
  hourly: TrafficPoint[];
  /** The last 7 days, one bucket per UTC day, oldest first; the last bucket is today so far. */
  daily: TrafficPoint[];
}

/**
 * Every bucket is present, empty ones with zeros, so a chart needs no gap filling. Each bucket is one
 * range read of the (api_key_id, created_at) index.
 */
const SERIES_SQL = (unit: 'hour' | 'day', buckets: number) => `
  SELECT b.at AS "at",
         count(l.created_at)::int AS "requests",
         count(l.created_at) FILTER (WHERE l.status_code >= 400)::int AS "errors"
    FROM generate_series(date_trunc('${unit}', now(), 'UTC') - interval '${buckets - 1} ${unit}s',
                         date_trunc('${unit}', now(), 'UTC'), interval '1 ${unit}') AS b(at)
    LEFT JOIN api_key_request_logs l
      ON l.api_key_id = :id AND l.created_at >= b.at AND l.created_at < b.at + interval '1 ${unit}'
   GROUP BY b.at
   ORDER BY b.at`;

export async function keyTraffic(db: Database, id: string): Promise<KeyTraffic> {
  const [[hourly], [daily]] = (await Promise.all([
    db.sequelize.query(SERIES_SQL('hour', 24), { replacements: { id } }),
    db.sequelize.query(SERIES_SQL('day', 7), { replacements: { id } }),
  ])) as [[TrafficPoint[], unknown], [TrafficPoint[], unknown]];
  return { hourly, daily };
}
