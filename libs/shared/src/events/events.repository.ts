import type { Transaction } from 'sequelize';
import { currentContext } from '../context/index.js';
import type { Database } from '../db/index.js';
import type { AppendedEvent, EventName, PublishedEvent } from './event-types.js';

/** The channel `append` notifies on commit, so a listening relay wakes without waiting for its next poll. */
export const EVENTS_CHANNEL = 'wms_events';

interface EventRow {
  id: string;
  event: EventName;
  data: Record<string, unknown>;
  occurredAt: Date;
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
    const context = currentContext();
    const [rows] = (await this.db.sequelize.query(
      `WITH inserted AS (
         INSERT INTO events (tenant_id, event, data, relayed_at, request_id, trace_id)
         VALUES (:tenantId, :event, CAST(:data AS jsonb), CASE WHEN :relayed THEN now() END, :requestId, :traceId)
         RETURNING id, tenant_id AS "tenantId", event, occurred_at AS "occurredAt"
       )
       SELECT inserted.*, pg_notify('${EVENTS_CHANNEL}', '') AS notified FROM inserted`,
      {
        replacements: {
          ...row,
          data: JSON.stringify(row.data),
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
    const [rows] = (await this.db.sequelize.query(
      `SELECT id, event, data, occurred_at AS "occurredAt", feed_position AS "feedPosition"
         FROM events
        WHERE tenant_id = :tenantId AND feed_position > :after AND event <> 'webhook.disabled'
        ORDER BY feed_position
        LIMIT :limit`,
      { replacements: { tenantId, after, limit } },
    )) as [EventRow[], unknown];
    return rows.map((row) => ({
      id: row.id,
      event: row.event,
      timestamp: row.occurredAt.toISOString(),
      data: row.data,
      position: row.feedPosition,
    }));
  }
}
