import type { Transaction } from 'sequelize';
import { activeTraceCarrier, currentContext, parseWithExactQuantities, routedRead } from '@wms/platform';
import type { Database } from '@wms/platform';
import { documentKeyOf } from './document-key.js';
import type { AppendedEvent, EventName, PublishedEvent } from './event-types.js';

/** The channel `append` notifies on commit, so a listening relay wakes without waiting for its next poll. */
export const EVENTS_CHANNEL = 'wms_events';

interface EventRow {
  id: string;
  event: EventName;
  /** The data as JSON text (parsed with its quantities exact). */
  data: string;
  occurredAt: Date;
  sequence: number | null;
  feedPosition: number;
}

export class EventsRepository {
  constructor(private readonly db: Database) {}

  async insert(
    row: { tenantId: string | null; event: EventName; data: Record<string, unknown>; relayed: boolean },
    transaction: Transaction,
  ): Promise<AppendedEvent> {
    // pg_notify inside the transaction is delivered only if and when it commits. The request (or job) that
    // causes the event is remembered with it, so the webhook deliveries it leads to can be joined to it.
    // The document's counter row is taken in the event's transaction: a second writer of the same document
    // waits for this one to commit, so sequences grow in commit order and are never given twice. With
    // tracing on, the active span's W3C context is kept too: the event's deliveries continue that trace.
    const context = currentContext();
    const trace = activeTraceCarrier();
    const [rows] = (await this.db.sequelize.query(
      `WITH counter AS (
         INSERT INTO document_sequences (document_key, last_sequence) VALUES ($7, 1)
         ON CONFLICT (document_key) DO UPDATE SET last_sequence = document_sequences.last_sequence + 1
         RETURNING last_sequence
       ), inserted AS (
         INSERT INTO events (tenant_id, event, data, relayed_at, request_id, trace_id, document_key, sequence, trace_context)
         SELECT $1::uuid, $2::text, $3::jsonb, CASE WHEN $4::boolean THEN now() END, $5::text, $6::text,
                $7::text, counter.last_sequence, $8::jsonb
           FROM counter
         RETURNING id, tenant_id AS "tenantId", event, occurred_at AS "occurredAt", sequence::float8 AS sequence
       )
       SELECT inserted.*, pg_notify('${EVENTS_CHANNEL}', '') AS notified FROM inserted`,
      {
        bind: [
          row.tenantId,
          row.event,
          JSON.stringify(row.data),
          row.relayed,
          context?.requestId ?? null,
          context?.traceId ?? null,
          documentKeyOf(row.event, row.data),
          trace ? JSON.stringify(trace) : null,
        ],
        transaction,
      },
    )) as [Array<AppendedEvent & { notified: unknown }>, unknown];
    const { notified: _notified, ...event } = rows[0]!;
    return event;
  }

  async listByFeedPosition(
    tenantId: string,
    after: number,
    limit: number,
  ): Promise<Array<PublishedEvent & { position: number }>> {
    const [rows] = (await routedRead(this.db, (from) =>
      from.sequelize.query(
        `SELECT id, event, data::text AS data, occurred_at AS "occurredAt", sequence::float8 AS sequence,
                feed_position AS "feedPosition"
           FROM events
          WHERE tenant_id = $1 AND feed_position > $2 AND event <> 'webhook.disabled'
          ORDER BY feed_position
          LIMIT $3`,
        { bind: [tenantId, after, limit] },
      ),
    )) as [EventRow[], unknown];
    return rows.map((row) => ({
      id: row.id,
      event: row.event,
      timestamp: row.occurredAt.toISOString(),
      sequence: row.sequence,
      // Read as text and parsed here so no quantity passes through a float (jsonb numbers are exact).
      data: parseWithExactQuantities<Record<string, unknown>>(row.data),
      position: row.feedPosition,
    }));
  }
}
