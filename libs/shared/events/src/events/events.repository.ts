import type { Transaction } from 'sequelize';
import { currentContext, routedRead } from '@wms/platform';
import type { Database } from '@wms/platform';
import { documentKeyOf } from './document-key.js';
import type { AppendedEvent, EventName, PublishedEvent } from './event-types.js';

/** The channel `append` notifies on commit, so a listening relay wakes without waiting for its next poll. */
export const EVENTS_CHANNEL = 'wms_events';

interface EventRow {
  id: string;
  event: EventName;
  data: Record<string, unknown>;
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
    // waits for this one to commit, so sequences grow in commit order and are never given twice.
    const context = currentContext();
    const [rows] = (await this.db.sequelize.query(
      `WITH counter AS (
         INSERT INTO document_sequences (document_key, last_sequence) VALUES (:documentKey, 1)
         ON CONFLICT (document_key) DO UPDATE SET last_sequence = document_sequences.last_sequence + 1
         RETURNING last_sequence
       ), inserted AS (
         INSERT INTO events (tenant_id, event, data, relayed_at, request_id, trace_id, document_key, sequence)
         SELECT :tenantId, :event, CAST(:data AS jsonb), CASE WHEN :relayed THEN now() END, :requestId, :traceId,
                :documentKey, counter.last_sequence
           FROM counter
         RETURNING id, tenant_id AS "tenantId", event, occurred_at AS "occurredAt", sequence::float8 AS sequence
       )
       SELECT inserted.*, pg_notify('${EVENTS_CHANNEL}', '') AS notified FROM inserted`,
      {
        replacements: {
          ...row,
          data: JSON.stringify(row.data),
          documentKey: documentKeyOf(row.event, row.data),
          requestId: context?.requestId ?? null,
          traceId: context?.traceId ?? null,
        },
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
        `SELECT id, event, data, occurred_at AS "occurredAt", sequence::float8 AS sequence, feed_position AS "feedPosition"
           FROM events
          WHERE tenant_id = :tenantId AND feed_position > :after AND event <> 'webhook.disabled'
          ORDER BY feed_position
          LIMIT :limit`,
        { replacements: { tenantId, after, limit } },
      ),
    )) as [EventRow[], unknown];
    return rows.map((row) => ({
      id: row.id,
      event: row.event,
      timestamp: row.occurredAt.toISOString(),
      sequence: row.sequence,
      data: row.data,
      position: row.feedPosition,
    }));
  }
}
