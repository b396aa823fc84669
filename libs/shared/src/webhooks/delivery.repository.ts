import type { Database } from '../db/models.js';
import type { EventName } from '../events/index.js';
import type { DeliveryStatus } from './webhook.types.js';

/** Everything one attempt needs, read in one query. */
export interface DeliveryWork {
  id: string;
  status: DeliveryStatus;
  generation: number;
  eventId: string;
  subscriptionId: string;
  url: string;
  secretSealed: string;
  active: boolean;
  event: EventName;
  data: Record<string, unknown>;
  occurredAt: Date;
}

export interface AttemptRecord {
  deliveryId: string;
  generation: number;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  responseBody: string | null;
  /** The delivery's state after this attempt. */
  status: DeliveryStatus;
  nextAttemptAt: Date | null;
  /** The subscriber answered 410: disable the subscription too. */
  disableSubscription?: string;
}

export class DeliveryRepository {
  constructor(private readonly db: Database) {}

  async load(deliveryId: string): Promise<DeliveryWork | null> {
    const [rows] = (await this.db.sequelize.query(
      `SELECT d.id, d.status, d.generation, d.event_id AS "eventId", d.subscription_id AS "subscriptionId",
              s.url, s.secret_sealed AS "secretSealed", s.active, e.event, e.data, e.occurred_at AS "occurredAt"
         FROM webhook_deliveries d
         JOIN webhook_subscriptions s ON s.id = d.subscription_id
         JOIN events e ON e.id = d.event_id
        WHERE d.id = :deliveryId`,
      { replacements: { deliveryId } },
    )) as [DeliveryWork[], unknown];
    return rows[0] ?? null;
  }

  /**
   * Writes the attempt and the delivery's new state in one statement. The delivery is only changed
   * while it is still pending in the same run (generation): a late answer of an attempt that was
   * presumed dead (worker killed, job re-run) cannot turn a success back into a failure.
   */
  async record(attempt: AttemptRecord): Promise<void> {
    await this.db.sequelize.query(
      `WITH attempt AS (
         INSERT INTO webhook_delivery_attempts (delivery_id, generation, status_code, latency_ms, error, response_body)
         VALUES (:deliveryId, :generation, :statusCode, :latencyMs, :error, :responseBody)
       ), delivery AS (
         UPDATE webhook_deliveries
            SET attempts = attempts + 1, status = :status, last_status_code = :statusCode, last_error = :error,
                next_attempt_at = :nextAttemptAt, updated_at = now()
          WHERE id = :deliveryId AND generation = :generation AND status = 'pending'
          RETURNING subscription_id
       )
       UPDATE webhook_subscriptions SET active = false, disabled_reason = :disabledReason, updated_at = now()
        WHERE :disable AND id IN (SELECT subscription_id FROM delivery)`,
      {
        replacements: {
          ...attempt,
          disabledReason: attempt.disableSubscription ?? null,
          disable: Boolean(attempt.disableSubscription),
        },
      },
    );
  }

  /** Ends a run without an HTTP attempt (subscription disabled, secret unreadable, address refused). */
  async fail(deliveryId: string, generation: number, error: string): Promise<void> {
    await this.db.sequelize.query(
      `UPDATE webhook_deliveries SET status = 'failed', last_error = :error, next_attempt_at = NULL, updated_at = now()
        WHERE id = :deliveryId AND generation = :generation AND status = 'pending'`,
      { replacements: { deliveryId, generation, error } },
    );
  }
}
