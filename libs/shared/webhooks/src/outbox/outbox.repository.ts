import type { Transaction } from 'sequelize';
import type { EventFilter } from '../subscriptions/index.js';
import { type Database } from '@wms/platform';
import type { OutboxStats } from './outbox-gauges.js';
// Serialises fan-out passes across relays, so feed positions become visible in the order they are given.
import { FAN_OUT_LOCK_KEY } from '../delivery/index.js';

/** A delivery row written but not yet in the delivery queue (or to be looked up there again). */
export interface UnqueuedRow {
  id: string;
  eventId: string;
  subscriptionId: string;
  generation: number;
  attempts: number;
  priority: number;
}

/** What one fan-out wrote (none when another relay was fanning out), and the (event, subscription) pairs a filter decides with what deciding needs. */
export interface FanOutRows {
  events: number;
  deliveries: UnqueuedRow[];
  /** [eventId, subscriptionId] of the filtered subscriptions the event otherwise reaches. */
  filtered: Array<[string, string]>;
  eventData: Record<string, unknown> | null;
  filters: Record<string, EventFilter> | null;
}

const UNQUEUED_COLUMNS = `id, event_id AS "eventId", subscription_id AS "subscriptionId", generation, attempts, priority`;

/**
 * The outbox's statements: the fan-out of events into delivery rows, the claims of delivery rows to queue
 * (FOR UPDATE SKIP LOCKED, so relays and the gateway share the work without waiting on each other) and the
 * outbox's state for the metrics. Each runs in the caller's transaction where one is given.
 */
export class OutboxRepository {
  constructor(private readonly db: Database) {}

  /**
   * Claims up to `batch` committed, unrelayed events and, in one statement, writes one delivery row per
   * matching subscription (unique per event and subscription), gives each event its feed position and marks
   * it relayed. Rows are written as enqueued when `enqueue` is true. Null when another relay holds the
   * fan-out lock.
   */
  async fanOut(batch: number, enqueue: boolean, transaction: Transaction): Promise<FanOutRows | null> {
    const [[lock]] = (await this.db.sequelize.query('SELECT pg_try_advisory_xact_lock($1::bigint) AS locked', {
      bind: [FAN_OUT_LOCK_KEY],
      transaction,
    })) as [Array<{ locked: boolean }>, unknown];
    if (!lock?.locked) return null;
    const [[pass]] = (await this.db.sequelize.query(
      `WITH claimed AS (
           SELECT id, seq, tenant_id, event, data, document_key, sequence FROM events
            WHERE relayed_at IS NULL
            ORDER BY seq
            LIMIT $1
            FOR UPDATE SKIP LOCKED
         ), positioned AS (
           SELECT id, nextval('events_feed_position_seq') AS position FROM (SELECT id FROM claimed ORDER BY seq) ordered
         ), matching AS (
           SELECT c.id AS event_id, c.event, s.id AS subscription_id, s.filter,
                  CASE WHEN s.ordered THEN c.document_key END AS document_key,
                  CASE WHEN s.ordered THEN c.sequence END AS sequence
             FROM claimed c
             JOIN webhook_subscriptions s
               ON s.active
              AND (s.tenant_id IS NULL OR s.tenant_id = c.tenant_id)
              AND (c.event = ANY (s.events) OR ('*' = ANY (s.events) AND c.event <> 'webhook.disabled'))
         ), inserted AS (
           INSERT INTO webhook_deliveries (event_id, event, subscription_id, next_attempt_at, enqueued_at, document_key, sequence)
           SELECT event_id, event, subscription_id, now(), CASE WHEN $2::boolean THEN now() END, document_key, sequence
             FROM matching WHERE filter IS NULL
           ON CONFLICT (event_id, subscription_id) DO NOTHING
           RETURNING ${UNQUEUED_COLUMNS}
         ), filtered AS (
           SELECT event_id, subscription_id FROM matching WHERE filter IS NOT NULL
         ), marked AS (
           UPDATE events e SET relayed_at = now(), feed_position = p.position
             FROM positioned p WHERE e.id = p.id
           RETURNING 1
         )
         SELECT (SELECT count(*) FROM marked)::int AS events,
                (SELECT coalesce(json_agg(inserted), '[]'::json) FROM inserted) AS deliveries,
                (SELECT coalesce(json_agg(json_build_array(event_id, subscription_id)), '[]'::json) FROM filtered)
                  AS "filtered",
                (SELECT json_object_agg(c.id, c.data) FROM claimed c WHERE c.id IN (SELECT event_id FROM filtered))
                  AS "eventData",
                (SELECT json_object_agg(s.id, s.filter) FROM webhook_subscriptions s
                  WHERE s.id IN (SELECT subscription_id FROM filtered)) AS filters`,
      { bind: [batch, enqueue], transaction },
    )) as [Array<FanOutRows>, unknown];
    return pass!;
  }

  /** Delivery rows for the (event, subscription) pairs a filter matched; ordered subscriptions keep the document's order. */
  async insertDeliveries(
    matches: Array<[string, string]>,
    enqueue: boolean,
    transaction: Transaction,
  ): Promise<UnqueuedRow[]> {
    const [rows] = (await this.db.sequelize.query(
      `INSERT INTO webhook_deliveries (event_id, event, subscription_id, next_attempt_at, enqueued_at, document_key, sequence)
       SELECT m.event_id, e.event, m.subscription_id, now(), CASE WHEN $1::boolean THEN now() END,
              CASE WHEN s.ordered THEN e.document_key END, CASE WHEN s.ordered THEN e.sequence END
         FROM json_to_recordset(CAST($2 AS json)) AS m(event_id uuid, subscription_id uuid)
         JOIN events e ON e.id = m.event_id
         JOIN webhook_subscriptions s ON s.id = m.subscription_id
       ON CONFLICT (event_id, subscription_id) DO NOTHING
       RETURNING ${UNQUEUED_COLUMNS}`,
      {
        bind: [
          enqueue,
          JSON.stringify(
            matches.map(([eventId, subscriptionId]) => ({ event_id: eventId, subscription_id: subscriptionId })),
          ),
        ],
        transaction,
      },
    )) as [UnqueuedRow[], unknown];
    return rows;
  }

  /** Up to `limit` deliveries not yet queued, oldest first (or only those named in `ids`), locked. */
  async claimUnqueued(limit: number, ids: string[] | undefined, transaction: Transaction): Promise<UnqueuedRow[]> {
    const [rows] = (await this.db.sequelize.query(
      `SELECT ${UNQUEUED_COLUMNS}
         FROM webhook_deliveries
        WHERE enqueued_at IS NULL AND ($2::uuid[] IS NULL OR id = ANY ($2::uuid[]))
        ORDER BY created_at
        LIMIT $1
        FOR UPDATE SKIP LOCKED`,
      { bind: [limit, ids ?? null], transaction },
    )) as [UnqueuedRow[], unknown];
    return rows;
  }

  /** Up to `limit` pending deliveries queued at or before `cutoff`, longest queued first, locked. */
  async claimQueuedBefore(limit: number, cutoff: Date, transaction: Transaction): Promise<UnqueuedRow[]> {
    const [rows] = (await this.db.sequelize.query(
      `SELECT ${UNQUEUED_COLUMNS}
         FROM webhook_deliveries
        WHERE status = 'pending' AND enqueued_at <= $1
        ORDER BY enqueued_at
        LIMIT $2
        FOR UPDATE SKIP LOCKED`,
      { bind: [cutoff, limit], transaction },
    )) as [UnqueuedRow[], unknown];
    return rows;
  }

  /** Stamps the deliveries as queued (or looked up in the queue) now. */
  async markEnqueued(ids: string[], transaction: Transaction): Promise<void> {
    await this.db.sequelize.query('UPDATE webhook_deliveries SET enqueued_at = now() WHERE id = ANY($1::uuid[])', {
      bind: [ids],
      transaction,
    });
  }

  /** Leaves the deliveries to the enqueue passes: the queue did not take them. */
  async markUnqueued(ids: string[], transaction: Transaction): Promise<void> {
    await this.db.sequelize.query('UPDATE webhook_deliveries SET enqueued_at = NULL WHERE id = ANY($1::uuid[])', {
      bind: [ids],
      transaction,
    });
  }

  /** The database's clock `staleMs` ago: rows are compared with the clock that stamped them. */
  async cutoff(staleMs: number): Promise<Date> {
    const [[{ cutoff }]] = (await this.db.sequelize.query(
      "SELECT now() - $1::float8 * interval '1 millisecond' AS cutoff",
      { bind: [staleMs] },
    )) as [Array<{ cutoff: Date }>, unknown];
    return cutoff;
  }

  /**
   * The outbox's state for the metrics: each part reads a small partial index (unrelayed events,
   * deliveries retrying after an error), so a scrape stays cheap however large the tables grow.
   */
  async stats(): Promise<OutboxStats> {
    const [[row]] = (await this.db.sequelize.query(
      `SELECT (SELECT count(*) FROM events WHERE relayed_at IS NULL)::int AS backlog,
              COALESCE((SELECT EXTRACT(EPOCH FROM now() - occurred_at) FROM events
                         WHERE relayed_at IS NULL ORDER BY seq LIMIT 1), 0)::float AS "oldestEventAgeSeconds",
              (SELECT count(DISTINCT subscription_id) FROM webhook_deliveries
                WHERE status = 'pending' AND last_error IS NOT NULL)::int AS "failingSubscriptions"`,
    )) as [OutboxStats[], unknown];
    return row!;
  }
}
