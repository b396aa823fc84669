import { isIP } from 'node:net';
import { onOneConnection, PreparedStatement, type Database, type SessionQuery } from '@wms/platform';

/** One request a key made, as the gateway records it; `endpoint` is the route template that answered. */
export interface RequestLogEntry {
  apiKeyId: string;
  endpoint: string;
  method: string;
  ip: string | null;
  origin: string | null;
  statusCode: number;
  responseTimeMs: number;
  createdAt: Date;
  /** The dated API version the call was served in; null for a call refused before its version was known. */
  apiVersion?: string | null;
}

export type RecentRequest = Omit<RequestLogEntry, 'apiKeyId' | 'apiVersion'>;

/**
 * What became of the calls a key made that were not answered by a route: refused by its rate limit (429), or
 * by its IP whitelist or allowed origins (403). Counted in the hourly rollups only, never as log rows.
 */
export type RefusedOutcome = 'rateLimited' | 'refused';

/** Refused calls of one key in one UTC hour, as the gateway counted them. */
export interface OutcomeCount {
  apiKeyId: string;
  hour: Date;
  rateLimited: number;
  refused: number;
}

/** One hour of a key's traffic, from its rollup. */
export interface HourlyRollup {
  hour: Date;
  /** Answered calls (each one also a log row). */
  requests: number;
  /** Of those, answered with status 400 or above. */
  errors: number;
  responseTimeSumUs: number;
  rateLimited: number;
  refused: number;
  /** Answered calls by the dated API version that served them. */
  versions: Record<string, number>;
}

export interface KeyTrafficRow {
  id: string;
  name: string;
  keyPrefix: string;
  requests24h: number;
  errors24h: number;
  rateLimited24h: number;
  refused24h: number;
}

/** A partition of the request log and the UTC day it holds. */
export interface DayPartition {
  name: string;
  day: Date;
  /** A DETACH … CONCURRENTLY that did not finish: the partition is to be finalised, then dropped. */
  detachPending: boolean;
  /** Its day is over and its index was rebuilt compact. */
  settled: boolean;
}

const SETTLED = 'settled';

const PARTITION_PREFIX = 'api_key_request_logs_p';
const PARTITION_LOCK_ID = 7_410_030;
const MAX_RESPONSE_TIME_US = 2_147_483_647;
const DAY_MS = 86_400_000;

/** PostgreSQL's answer to a row no partition takes. */
function isMissingPartition(error: unknown): boolean {
  const { code, message } = error as { code?: string; message?: string };
  return code === '23514' && /no partition/.test(message ?? '');
}

/**
 * A batch as one JSON array of rows, inserted into the log and added to the hourly rollups by one statement,
 * so the two never disagree: the log's insert fails as a whole (no partition for a row) or both are written.
 * Rollup rows are upserted in key and hour order, so two gateways flushing at once cannot deadlock.
 */
const insertStatement = new PreparedStatement<never>(
  'api-key-request-logs-insert-rollup',
  `WITH input AS (
     SELECT timestamptz 'epoch' + (row->>0)::bigint * interval '1 millisecond' AS created_at,
            (row->>1)::uuid AS api_key_id, (row->>2)::integer AS response_time_us,
            (row->>3)::smallint AS endpoint_id, (row->>4)::smallint AS status_code,
            (row->>5)::inet AS ip, row->>6 AS origin, row->>7 AS api_version
       FROM jsonb_array_elements($1::jsonb) AS row),
   logged AS (
     INSERT INTO api_key_request_logs (created_at, api_key_id, response_time_us, endpoint_id, status_code, ip, origin)
     SELECT created_at, api_key_id, response_time_us, endpoint_id, status_code, ip, origin FROM input),
   by_version AS (
     SELECT api_key_id, date_trunc('hour', created_at, 'UTC') AS hour, api_version, count(*) AS requests,
            count(*) FILTER (WHERE status_code >= 400) AS errors, sum(response_time_us) AS response_time_sum_us,
            max(response_time_us) AS response_time_max_us
       FROM input GROUP BY 1, 2, 3)
   INSERT INTO api_key_request_rollups AS r
          (api_key_id, hour, requests, errors, response_time_sum_us, response_time_max_us, versions)
   SELECT api_key_id, hour, sum(requests), sum(errors), sum(response_time_sum_us), max(response_time_max_us),
          COALESCE(jsonb_object_agg(api_version, requests) FILTER (WHERE api_version IS NOT NULL), '{}'::jsonb)
     FROM by_version GROUP BY 1, 2 ORDER BY 1, 2
   ON CONFLICT (api_key_id, hour) DO UPDATE
      SET requests = r.requests + EXCLUDED.requests,
          errors = r.errors + EXCLUDED.errors,
          response_time_sum_us = r.response_time_sum_us + EXCLUDED.response_time_sum_us,
          response_time_max_us = greatest(r.response_time_max_us, EXCLUDED.response_time_max_us),
          versions = CASE WHEN EXCLUDED.versions = '{}'::jsonb THEN r.versions ELSE
            (SELECT jsonb_object_agg(v.version, COALESCE((r.versions->>v.version)::integer, 0)
                                                + COALESCE((EXCLUDED.versions->>v.version)::integer, 0))
               FROM jsonb_object_keys(r.versions || EXCLUDED.versions) AS v(version)) END`,
);

/**
 * Adds counted refusals to the hourly rollups (a row made when the hour has none), in key and hour order
 * as the log's insert does, so flushes of two gateways cannot deadlock.
 */
const addOutcomesStatement = new PreparedStatement<never>(
  'api-key-request-rollups-add-outcomes',
  `INSERT INTO api_key_request_rollups AS r
          (api_key_id, hour, requests, errors, response_time_sum_us, response_time_max_us, rate_limited, refused)
   SELECT (row->>0)::uuid, timestamptz 'epoch' + (row->>1)::bigint * interval '1 millisecond', 0, 0, 0, 0,
          (row->>2)::integer, (row->>3)::integer
     FROM jsonb_array_elements($1::jsonb) AS row
    ORDER BY 1, 2
   ON CONFLICT (api_key_id, hour) DO UPDATE
      SET rate_limited = r.rate_limited + EXCLUDED.rate_limited,
          refused = r.refused + EXCLUDED.refused`,
);

const RECENT_SQL = (older: boolean) => `
  SELECT e.route AS endpoint, e.method, host(l.ip) AS ip, l.origin, l.status_code::integer AS "statusCode",
         (l.response_time_us / 1000.0)::float8 AS "responseTimeMs", l.created_at AS "createdAt"
    FROM api_key_request_logs l JOIN api_request_endpoints e ON e.id = l.endpoint_id
   WHERE l.api_key_id = $1
     AND l.created_at ${older ? '<' : '>='} date_trunc('day', now(), 'UTC') - interval '1 day'
   ORDER BY l.created_at DESC LIMIT $2`;

/** A UTC day's partition name: api_key_request_logs_p20260131. */
export function partitionNameOf(day: Date): string {
  return `${PARTITION_PREFIX}${day.toISOString().slice(0, 10).replace(/-/g, '')}`;
}

/** The address as PostgreSQL's inet takes it, or null: a zone id is dropped, anything else not an IP too. */
function inetOf(ip: string | null): string | null {
  if (!ip) return null;
  const zone = ip.indexOf('%');
  const address = zone === -1 ? ip : ip.slice(0, zone);
  return isIP(address) ? address : null;
}

/**
 * The API-key request log (partitioned by UTC day), its hourly rollups per key and its endpoint dictionary
 * (method and route template by a smallint id). Everything that reads or maintains them is here.
 */
export class RequestLogRepository {
  /** `method route` → id; the dictionary only grows, and by the routes of the gateway, so it is kept whole. */
  private readonly endpointIds = new Map<string, number>();

  constructor(private readonly db: Database) {}

  /** Appends a batch to the log and to its hourly rollups, in one statement. */
  async insert(entries: RequestLogEntry[]): Promise<void> {
    if (entries.length === 0) return;
    const ids = await this.idsOf(entries);
    const rows = entries.map((entry) => [
      entry.createdAt.getTime(),
      entry.apiKeyId,
      Math.min(Math.max(Math.round(entry.responseTimeMs * 1000), 0), MAX_RESPONSE_TIME_US),
      ids.get(`${entry.method} ${entry.endpoint}`),
      entry.statusCode,
      inetOf(entry.ip),
      entry.origin,
      entry.apiVersion ?? null,
    ]);
    const batch = JSON.stringify(rows);
    try {
      await insertStatement.rows(this.db.sequelize, [batch]);
    } catch (error) {
      if (!isMissingPartition(error)) throw error;
      // A record of a day without a partition (before yesterday, or a clock far ahead): make its day's, write
      // again. One older than the retention goes with its partition at the next maintenance pass.
      await this.addPartitionsFor(entries.map((entry) => entry.createdAt));
      await insertStatement.rows(this.db.sequelize, [batch]);
    }
  }

  /** Adds refused calls (rate limit, IP or origin) to the hourly rollups; no log row is written for them. */
  async addOutcomes(counts: OutcomeCount[]): Promise<void> {
    if (counts.length === 0) return;
    const rows = counts.map((count) => [count.apiKeyId, count.hour.getTime(), count.rateLimited, count.refused]);
    await addOutcomesStatement.rows(this.db.sequelize, [JSON.stringify(rows)]);
  }

  /** Makes the missing partitions of the days of these times, waiting for the maintenance lock. */
  async addPartitionsFor(times: Date[]): Promise<string[]> {
    const days = new Set(times.map((time) => Math.floor(time.getTime() / DAY_MS) * DAY_MS));
    const added: string[] = [];
    await this.withPartitionLock(true, async (partitions) => {
      const have = new Set((await partitions.list()).map((partition) => partition.day.getTime()));
      for (const day of days) {
        if (have.has(day)) continue;
        await partitions.add(new Date(day));
        added.push(partitionNameOf(new Date(day)));
      }
    });
    return added;
  }

  /** A key's newest requests: the newest partitions first (today and yesterday), older ones only if short. */
  async recent(id: string, limit: number): Promise<RecentRequest[]> {
    const read = async (older: boolean, count: number) => {
      const [rows] = (await this.db.sequelize.query(RECENT_SQL(older), { bind: [id, count] })) as [
        RecentRequest[],
        unknown,
      ];
      return rows;
    };
    const newest = await read(false, limit);
    return newest.length < limit ? [...newest, ...(await read(true, limit - newest.length))] : newest;
  }

  /** The key's rollups from the start of the UTC day six days ago, and the hour now running (UTC). */
  async keyRollups(id: string): Promise<{ nowHour: Date; hours: HourlyRollup[] }> {
    const [rows] = (await this.db.sequelize.query(
      `SELECT n.now_hour AS "nowHour", r.hour, r.requests, r.errors, r.response_time_sum_us AS "responseTimeSumUs",
              r.rate_limited AS "rateLimited", r.refused, r.versions
         FROM (SELECT date_trunc('hour', now(), 'UTC') AS now_hour) n
         LEFT JOIN api_key_request_rollups r
           ON r.api_key_id = $1 AND r.hour >= date_trunc('day', n.now_hour, 'UTC') - interval '6 days'
          AND r.hour <= n.now_hour`,
      { bind: [id] },
    )) as [Array<HourlyRollup & { nowHour: Date; hour: Date | null }>, unknown];
    return {
      nowHour: new Date(rows[0]!.nowHour),
      hours: rows
        .filter((row) => row.hour !== null)
        .map(({ hour, requests, errors, responseTimeSumUs, rateLimited, refused, versions }) => ({
          hour: new Date(hour),
          requests,
          errors,
          responseTimeSumUs: Number(responseTimeSumUs),
          rateLimited,
          refused,
          versions: versions ?? {},
        })),
    };
  }

  /** Calls per key by outcome over the hour now running and the 23 before it, busiest (answered) first. */
  async trafficByKey(tenantId: string | null): Promise<KeyTrafficRow[]> {
    const [rows] = (await this.db.sequelize.query(
      `SELECT k.id, k.name, k.key_prefix AS "keyPrefix",
              sum(r.requests)::integer AS "requests24h", sum(r.errors)::integer AS "errors24h",
              sum(r.rate_limited)::integer AS "rateLimited24h", sum(r.refused)::integer AS "refused24h"
         FROM api_key_request_rollups r JOIN api_keys k ON k.id = r.api_key_id
        WHERE r.hour >= date_trunc('hour', now(), 'UTC') - interval '23 hours'
          ${tenantId === null ? '' : 'AND k.tenant_id = $1::uuid'}
        GROUP BY k.id
        ORDER BY "requests24h" DESC, k.name`,
      { bind: tenantId === null ? [] : [tenantId] },
    )) as [KeyTrafficRow[], unknown];
    return rows;
  }

  /** Deletes at most `batchSize` rollup hours older than `retentionDays`; returns how many went. */
  async purgeRollups(retentionDays: number, batchSize: number): Promise<number> {
    const [, result] = (await this.db.sequelize.query(
      `DELETE FROM api_key_request_rollups r
        USING (SELECT api_key_id, hour FROM api_key_request_rollups
                WHERE hour < now() - make_interval(days => $1) LIMIT $2) old
        WHERE r.api_key_id = old.api_key_id AND r.hour = old.hour`,
      { bind: [retentionDays, batchSize] },
    )) as [unknown, { rowCount?: number }];
    return result?.rowCount ?? 0;
  }

  /**
   * Runs `work` holding the partition maintenance lock (a session advisory lock on one connection), so
   * replicas never create or drop partitions at once. `wait` false: null at once when another holds it.
   */
  async withPartitionLock<T>(wait: boolean, work: (partitions: PartitionSession) => Promise<T>): Promise<T | null> {
    return onOneConnection(this.db.sequelize, async (query) => {
      if (wait) await query('SELECT pg_advisory_lock($1)', [PARTITION_LOCK_ID]);
      else {
        const [row] = await query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [
          PARTITION_LOCK_ID,
        ]);
        if (!row?.locked) return null;
      }
      try {
        return await work(new PartitionSession(query));
      } finally {
        await query('SELECT pg_advisory_unlock($1)', [PARTITION_LOCK_ID]);
      }
    });
  }

  private async idsOf(entries: RequestLogEntry[]): Promise<Map<string, number>> {
    const missing = new Map<string, { method: string; route: string }>();
    for (const { method, endpoint } of entries) {
      const key = `${method} ${endpoint}`;
      if (!this.endpointIds.has(key)) missing.set(key, { method, route: endpoint });
    }
    // A pair another process adds between this statement's snapshot and its insert is read on the next turn.
    for (let turn = 0; missing.size > 0 && turn < 3; turn += 1) {
      const pairs = [...missing.values()];
      const rows = await this.db.sequelize.query<{ id: number; method: string; route: string }>(
        `WITH wanted AS (SELECT * FROM unnest($1::text[], $2::text[]) AS w(method, route)),
         added AS (
           INSERT INTO api_request_endpoints (method, route)
           SELECT method, route FROM wanted w
            WHERE NOT EXISTS (SELECT 1 FROM api_request_endpoints e WHERE e.method = w.method AND e.route = w.route)
           ON CONFLICT DO NOTHING
           RETURNING id, method, route)
         SELECT id, method, route FROM added
         UNION ALL
         SELECT e.id, e.method, e.route FROM api_request_endpoints e JOIN wanted w USING (method, route)`,
        {
          bind: [pairs.map((pair) => pair.method), pairs.map((pair) => pair.route)],
          type: 'SELECT' as never,
        },
      );
      for (const row of rows) {
        const key = `${row.method} ${row.route}`;
        this.endpointIds.set(key, row.id);
        missing.delete(key);
      }
    }
    if (missing.size > 0) throw new Error('request log: endpoints could not be registered');
    return this.endpointIds;
  }
}

/** The partition statements, on the connection that holds the maintenance lock. */
export class PartitionSession {
  constructor(private readonly query: SessionQuery) {}

  async list(): Promise<DayPartition[]> {
    const rows = await this.query<{ name: string; pending: boolean; note: string | null }>(
      `SELECT c.relname AS name, i.inhdetachpending AS pending, obj_description(c.oid, 'pg_class') AS note
         FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
        WHERE i.inhparent = 'api_key_request_logs'::regclass`,
    );
    return rows
      .filter((row) => /^api_key_request_logs_p\d{8}$/.test(row.name))
      .map((row) => {
        const digits = row.name.slice(PARTITION_PREFIX.length);
        const day = new Date(`${digits.slice(0, 4)}-${digits.slice(4, 6)}-${digits.slice(6, 8)}T00:00:00Z`);
        return { name: row.name, day, detachPending: row.pending, settled: row.note === SETTLED };
      });
  }

  /**
   * Adds the day's partition: created apart, then attached, which locks the log's parent table only in
   * SHARE UPDATE EXCLUSIVE mode (writers and readers go on), where CREATE … PARTITION OF would block them.
   */
  async add(day: Date): Promise<void> {
    const name = partitionNameOf(day);
    const next = new Date(day.getTime() + 86_400_000);
    await this.query(`
      CREATE TABLE IF NOT EXISTS ${name} (LIKE api_key_request_logs INCLUDING DEFAULTS);
      ALTER TABLE api_key_request_logs ATTACH PARTITION ${name}
        FOR VALUES FROM ('${day.toISOString()}') TO ('${next.toISOString()}');`);
  }

  /**
   * Rebuilds the index of a day that is over: written in time order by many keys at once, its pages split
   * half full (about 56 bytes a row); rebuilt, they are packed (about 40). CONCURRENTLY: reads go on.
   */
  async settle(partition: DayPartition): Promise<void> {
    await this.query(`REINDEX TABLE CONCURRENTLY ${partition.name}`);
    await this.query(`COMMENT ON TABLE ${partition.name} IS '${SETTLED}'`);
  }

  /** Detaches the partition without blocking writers or readers (CONCURRENTLY), then drops it: no row deleted. */
  async drop(partition: DayPartition): Promise<void> {
    await this.query(
      `ALTER TABLE api_key_request_logs DETACH PARTITION ${partition.name} ${partition.detachPending ? 'FINALIZE' : 'CONCURRENTLY'}`,
    );
    await this.query(`DROP TABLE ${partition.name}`);
  }
}
