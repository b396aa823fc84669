import type { Database } from '@wms/platform';
import { cursorColumn, routedRead, toPage, type CursorPosition, type ListPage } from '@wms/platform';
import type { DeliveryAttempt, DeliveryStatus, WebhookDelivery } from './webhook.types.js';

export interface DeliveryLogQuery {
  status?: DeliveryStatus;
  event?: string;
  limit: number;
  /** Where the previous page stopped (the last delivery's creation time and id). */
  cursor?: CursorPosition;
}

/**
 * What an admin screen reads about a subscription's deliveries: the log, newest first, and each one's attempts
 * (on a read replica when routed).
 */
export class DeliveryLogRepository {
  constructor(private readonly db: Database) {}

  async page(subscriptionId: string, query: DeliveryLogQuery): Promise<ListPage<WebhookDelivery>> {
    const [rows] = (await routedRead(this.db, (from) =>
      from.sequelize.query(
        `SELECT d.id, d.event_id AS "eventId", d.event, d.status, d.attempts, d.last_status_code AS "lastStatusCode",
              d.last_error AS "lastError", d.next_attempt_at AS "nextAttemptAt", d.created_at AS "createdAt",
              d.updated_at AS "updatedAt",
              ${cursorColumn('d.created_at', 'd.id')}
         FROM webhook_deliveries d
        WHERE d.subscription_id = $1
          AND ($2::text IS NULL OR d.status = $2)
          AND ($3::text IS NULL OR d.event = $3)
          AND ($4::timestamptz IS NULL OR (d.created_at, d.id) < ($4::timestamptz, $5::uuid))
        ORDER BY d.created_at DESC, d.id DESC
        LIMIT $6`,
        {
          bind: [
            subscriptionId,
            query.status ?? null,
            query.event ?? null,
            query.cursor?.updatedAt ?? null,
            query.cursor?.id ?? null,
            query.limit + 1,
          ],
        },
      ),
    )) as [Array<WebhookDelivery & { cursor: CursorPosition }>, unknown];
    return toPage(rows, query.limit);
  }

  /** The delivery's attempts over every run, newest first; empty when the delivery is not this subscription's. */
  async attempts(subscriptionId: string, deliveryId: string, limit: number): Promise<DeliveryAttempt[]> {
    const [rows] = (await routedRead(this.db, (from) =>
      from.sequelize.query(
        `SELECT a.id::text AS id, a.generation AS run, a.status_code AS "statusCode", a.latency_ms AS "latencyMs",
              a.error, a.response_body AS "responseBody", a.retry_after_ms AS "retryAfterMs",
              a.created_at AS "createdAt"
         FROM webhook_delivery_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
        WHERE d.id = $1 AND d.subscription_id = $2
        ORDER BY a.id DESC
        LIMIT $3`,
        { bind: [deliveryId, subscriptionId, limit] },
      ),
    )) as [DeliveryAttempt[], unknown];
    return rows;
  }
}
