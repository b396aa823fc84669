import { MicroBatcher } from '@wms/platform';
import { PreparedStatement, parseWithExactQuantities, type Database, type TraceCarrier } from '@wms/platform';
import type { EventName } from '@wms/events';
import type { DeliveryStatus } from '../subscriptions/index.js';

/** Everything one attempt needs, read in one query. */
export interface DeliveryWork {
  id: string;
  status: DeliveryStatus;
  generation: number;
  /** Attempts recorded over every run. */
  attempts: number;
  eventId: string;
  subscriptionId: string;
  url: string;
  /**
   * Where it goes: `http` to url, a broker with its settings and its sealed URL and credentials, or `edi`: a
   * trading partner's mailbox (settings `{ partnerId }`), written by the process' document destination.
   */
  destinationKind: 'http' | 'rabbitmq' | 'nats' | 'edi';
  destinationSettings: Record<string, unknown> | null;
  destinationSecretSealed: string | null;
  secretSealed: string;
  /** The secret before a rotation, while its grace period lasts (null otherwise). */
  previousSecretSealed: string | null;
  active: boolean;
  event: EventName;
  /** The event's data, its quantities exact decimal strings (the newest shape; rendered per subscription). */
  data: Record<string, unknown>;
  /** The subscription's dated API version: the body is rendered in it. */
  apiVersion: string;
  occurredAt: Date;
  /** The event's sequence within its document (null for events older than sequences). */
  sequence: number | null;
  /** The subscription's controls: its rate (null: none) and whether one document's deliveries go in order. */
  maxDeliveriesPerSecond: number | null;
  ordered: boolean;
  /** Set on deliveries of ordered subscriptions: the event's document and sequence. */
  documentKey: string | null;
  documentSequence: number | null;
  /** The request (and W3C trace) that caused the event, for the attempt's log line. */
  requestId: string | null;
  traceId: string | null;
  /** The W3C context of the work that committed the event (tracing on): the attempt is a span of its trace. */
  traceContext: TraceCarrier | null;
}

export interface AttemptRecord {
  deliveryId: string;
  generation: number;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  responseBody: string | null;
  /** The wait the receiver asked for with Retry-After, when it did. */
  retryAfterMs?: number | null;
  /** The delivery's state after this attempt. */
  status: DeliveryStatus;
  nextAttemptAt: Date | null;
}

/**
 * The delivery worker's reads and writes. Concurrent attempts of one process share round trips: the
 * loads and the records made in the same event-loop turn each go to PostgreSQL as one statement (every
 * caller still waits for its own row to be read or written).
 */
export class DeliveryRepository {
  private readonly loads = new MicroBatcher<string, DeliveryWork | null>((ids) => this.loadMany(ids));
  private readonly records = new MicroBatcher<AttemptRecord, void>((attempts) => this.recordMany(attempts));

  constructor(private readonly db: Database) {}

  load(deliveryId: string): Promise<DeliveryWork | null> {
    return this.loads.submit(deliveryId);
  }

  /**
   * Resolves once the fan-out under way (if any) has committed or rolled back. The relay adds the batch
   * jobs of a fan-out inside its transaction, so a worker can take a batch before the rows it names are
   * visible; a batch waits here (for the fan-out's lock) before it reads them.
   */
  async fanOutFinished(): Promise<void> {
    await fanOutFinished.rows(this.db.sequelize, [FAN_OUT_LOCK_KEY]);
  }

  /**
   * Writes the attempt and the delivery's new state. The delivery is only changed while it is still
   * pending in the same run (generation): a late answer of an attempt that was presumed dead (worker
   * killed, job re-run) cannot turn a success back into a failure.
   */
  record(attempt: AttemptRecord): Promise<void> {
    return this.records.submit(attempt);
  }

  private async loadMany(deliveryIds: string[]): Promise<Array<DeliveryWork | null>> {
    const rows = await loadStatement.rows(this.db.sequelize, [deliveryIds]);
    // Read as text and parsed here so no quantity passes through a float (jsonb numbers are exact).
    const byId = new Map(
      rows.map((row) => [row.id, { ...row, data: parseWithExactQuantities<Record<string, unknown>>(row.data) }]),
    );
    return deliveryIds.map((id) => byId.get(id) ?? null);
  }

  private async recordMany(attempts: AttemptRecord[]): Promise<void[]> {
    const rows = attempts.map((attempt) => ({
      delivery_id: attempt.deliveryId,
      generation: attempt.generation,
      status_code: attempt.statusCode,
      latency_ms: attempt.latencyMs,
      error: attempt.error,
      response_body: attempt.responseBody,
      retry_after_ms: attempt.retryAfterMs ?? null,
      status: attempt.status,
      next_attempt_at: attempt.nextAttemptAt?.toISOString() ?? null,
    }));
    await recordStatement.rows(this.db.sequelize, [JSON.stringify(rows)]);
    return attempts.map(() => undefined);
  }

  /**
   * For an ordered subscription: the earliest next attempt of a pending delivery of the same document with a
   * lower sequence (the one this delivery waits for), or null when there is none.
   */
  async earlierPending(work: DeliveryWork): Promise<{ nextAttemptAt: Date | null } | null> {
    const rows = await earlierPendingStatement.rows(this.db.sequelize, [
      work.subscriptionId,
      work.documentKey,
      work.documentSequence,
    ]);
    return rows[0] ?? null;
  }

  /** Ends a run without an HTTP attempt (subscription disabled, secret unreadable, address refused). */
  async fail(deliveryId: string, generation: number, error: string): Promise<void> {
    await this.db.sequelize.query(
      `UPDATE webhook_deliveries SET status = 'failed', last_error = $3, next_attempt_at = NULL, updated_at = now()
        WHERE id = $1 AND generation = $2 AND status = 'pending'`,
      { bind: [deliveryId, generation, error] },
    );
  }
}

/** Serialises fan-out passes across relays (transaction-level advisory lock, taken exclusively by a fan-out). */
export const FAN_OUT_LOCK_KEY = 0x77_6d_73_01; // "wms" + 1

// Waits for a fan-out holding the lock to finish: a shared lock, released when the statement ends.
const fanOutFinished = new PreparedStatement<unknown>(
  'webhook-fan-out-finished',
  'SELECT pg_advisory_xact_lock_shared($1::bigint)',
);

const loadStatement = new PreparedStatement<Omit<DeliveryWork, 'data'> & { data: string }>(
  'webhook-delivery-load',
  `SELECT d.id, d.status, d.generation, d.attempts, d.event_id AS "eventId", d.subscription_id AS "subscriptionId",
          s.url, s.destination_kind AS "destinationKind", s.destination AS "destinationSettings",
          s.destination_secret_sealed AS "destinationSecretSealed", s.secret_sealed AS "secretSealed", s.active, e.event, e.data::text AS data, s.api_version AS "apiVersion",
          e.occurred_at AS "occurredAt",
          CASE WHEN s.previous_secret_expires_at > now() THEN s.previous_secret_sealed END AS "previousSecretSealed",
          e.request_id AS "requestId", e.trace_id AS "traceId", e.trace_context AS "traceContext",
          e.sequence::float8 AS sequence,
          s.max_deliveries_per_second AS "maxDeliveriesPerSecond", s.ordered, d.document_key AS "documentKey",
          d.sequence::float8 AS "documentSequence"
     FROM webhook_deliveries d
     JOIN webhook_subscriptions s ON s.id = d.subscription_id
     JOIN events e ON e.id = d.event_id
    WHERE d.id = ANY($1::uuid[])`,
);

const earlierPendingStatement = new PreparedStatement<{ nextAttemptAt: Date | null }>(
  'webhook-delivery-earlier-pending',
  `SELECT next_attempt_at AS "nextAttemptAt" FROM webhook_deliveries
    WHERE subscription_id = $1 AND document_key = $2 AND sequence < $3::bigint AND status = 'pending'
    ORDER BY sequence
    LIMIT 1`,
);

const recordStatement = new PreparedStatement<never>(
  'webhook-delivery-record',
  `WITH input AS (
     SELECT * FROM json_to_recordset($1::json) AS r(
       delivery_id uuid, generation integer, status_code integer, latency_ms double precision, error text,
       response_body text, retry_after_ms integer, status text, next_attempt_at timestamptz)
   ), attempt AS (
     INSERT INTO webhook_delivery_attempts (delivery_id, generation, status_code, latency_ms, error, response_body,
                                            retry_after_ms)
     SELECT delivery_id, generation, status_code, latency_ms, error, response_body, retry_after_ms FROM input
   ), delivery AS (
     UPDATE webhook_deliveries d
        SET attempts = d.attempts + 1, status = i.status, last_status_code = i.status_code, last_error = i.error,
            next_attempt_at = i.next_attempt_at, updated_at = now()
       FROM input i
      WHERE d.id = i.delivery_id AND d.generation = i.generation AND d.status = 'pending'
      RETURNING d.subscription_id, i.status
   ), outcome AS (
     SELECT subscription_id, bool_or(status = 'succeeded') AS succeeded FROM delivery GROUP BY subscription_id
   )
   -- failing_since marks the first failure after the last success; it is written only when it changes,
   -- so a busy subscription's row is not updated on every attempt.
   UPDATE webhook_subscriptions s
      SET failing_since = CASE WHEN o.succeeded THEN NULL ELSE coalesce(s.failing_since, now()) END,
          updated_at = now()
     FROM outcome o
    WHERE s.id = o.subscription_id AND o.succeeded = (s.failing_since IS NOT NULL)`,
);
