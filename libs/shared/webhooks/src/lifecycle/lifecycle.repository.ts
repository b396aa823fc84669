import type { Transaction } from 'sequelize';
import type { Database } from '@wms/platform';
import type { EventName } from '@wms/events';
import { SUBSCRIPTION_COLUMNS, type WebhookSubscription } from '../subscriptions/index.js';

/**
 * The queue priority of recovered and replayed deliveries. BullMQ runs every job without a priority
 * before any job with one, so a recover of thousands waits behind live deliveries of every subscription.
 */
export const RECOVERY_PRIORITY = 10;

export interface StoredEvent {
  id: string;
  tenantId: string | null;
  event: EventName;
}

export interface DisabledSubscription {
  id: string;
  tenantId: string | null;
  url: string;
  disabledReason: string;
  disabledAt: Date;
  failingSince: Date | null;
}

const DISABLED_COLUMNS = `id, tenant_id AS "tenantId", url, disabled_reason AS "disabledReason",
  disabled_at AS "disabledAt", failing_since AS "failingSince"`;

/** The statements of secret rotation, recover, replay and the failing-subscription sweep. */
export class LifecycleRepository {
  constructor(private readonly db: Database) {}

  async rotateSecret(
    id: string,
    secretSealed: string,
    graceSeconds: number,
    transaction: Transaction,
  ): Promise<WebhookSubscription | null> {
    // The current secret becomes the previous one (an older previous one is dropped).
    const [rows] = (await this.db.sequelize.query(
      `UPDATE webhook_subscriptions
          SET previous_secret_sealed = CASE WHEN $3::float8 > 0 THEN secret_sealed END,
              previous_secret_expires_at = CASE WHEN $3::float8 > 0 THEN now() + make_interval(secs => $3::float8) END,
              secret_sealed = $2, secret_rotated_at = now(), updated_at = now()
        WHERE id = $1
        RETURNING ${SUBSCRIPTION_COLUMNS}`,
      { bind: [id, secretSealed, graceSeconds], transaction },
    )) as [WebhookSubscription[], unknown];
    return rows[0] ?? null;
  }

  /**
   * Starts a new run, at recovery priority, of up to `limit` failed deliveries created in [since, until),
   * oldest first. Rows another recover holds are skipped, so two recovers at once queue each delivery once.
   */
  async recover(
    subscriptionId: string,
    since: Date,
    until: Date,
    limit: number,
    transaction: Transaction,
  ): Promise<string[]> {
    const [rows] = (await this.db.sequelize.query(
      `WITH picked AS (
         SELECT id FROM webhook_deliveries
          WHERE subscription_id = $1 AND status = 'failed' AND created_at >= $2 AND created_at < $3
          ORDER BY created_at, id
          LIMIT $4
          FOR UPDATE SKIP LOCKED
       )
       UPDATE webhook_deliveries d
          SET status = 'pending', generation = d.generation + 1, enqueued_at = NULL, next_attempt_at = now(),
              priority = $5, updated_at = now()
         FROM picked WHERE d.id = picked.id AND d.status = 'failed'
       RETURNING d.id`,
      { bind: [subscriptionId, since, until, limit, RECOVERY_PRIORITY], transaction },
    )) as [Array<{ id: string }>, unknown];
    return rows.map((row) => row.id);
  }

  async countFailed(subscriptionId: string, since: Date, until: Date, transaction: Transaction): Promise<number> {
    const [[row]] = (await this.db.sequelize.query(
      `SELECT count(*)::int AS count FROM webhook_deliveries
        WHERE subscription_id = $1 AND status = 'failed' AND created_at >= $2 AND created_at < $3`,
      { bind: [subscriptionId, since, until], transaction },
    )) as [Array<{ count: number }>, unknown];
    return row!.count;
  }

  async findEvent(eventId: string, transaction: Transaction): Promise<StoredEvent | null> {
    const [rows] = (await this.db.sequelize.query(
      'SELECT id, tenant_id AS "tenantId", event FROM events WHERE id = $1',
      { bind: [eventId], transaction },
    )) as [StoredEvent[], unknown];
    return rows[0] ?? null;
  }

  /**
   * The event's delivery to the subscription, written or started again at recovery priority. Null when
   * it exists and is pending: a run is already under way, so a repeated replay adds nothing.
   */
  async replay(eventId: string, subscriptionId: string, transaction: Transaction): Promise<string | null> {
    const [rows] = (await this.db.sequelize.query(
      `INSERT INTO webhook_deliveries (event_id, event, subscription_id, next_attempt_at, priority)
       SELECT e.id, e.event, $2::uuid, now(), $3::int FROM events e WHERE e.id = $1
       ON CONFLICT (event_id, subscription_id) DO UPDATE
          SET status = 'pending', generation = webhook_deliveries.generation + 1, enqueued_at = NULL,
              next_attempt_at = now(), priority = $3::int, updated_at = now()
        WHERE webhook_deliveries.status <> 'pending'
       RETURNING id`,
      { bind: [eventId, subscriptionId, RECOVERY_PRIORITY], transaction },
    )) as [Array<{ id: string }>, unknown];
    return rows[0]?.id ?? null;
  }

  async deliveryIdOf(eventId: string, subscriptionId: string, transaction: Transaction): Promise<string | null> {
    const [rows] = (await this.db.sequelize.query(
      'SELECT id FROM webhook_deliveries WHERE event_id = $1 AND subscription_id = $2',
      { bind: [eventId, subscriptionId], transaction },
    )) as [Array<{ id: string }>, unknown];
    return rows[0]?.id ?? null;
  }

  /** Enables a disabled subscription; null when it was active already. */
  async enable(id: string, transaction: Transaction): Promise<WebhookSubscription | null> {
    const [rows] = (await this.db.sequelize.query(
      `UPDATE webhook_subscriptions
          SET active = true, disabled_reason = NULL, disabled_at = NULL, failing_since = NULL, updated_at = now()
        WHERE id = $1 AND NOT active
        RETURNING ${SUBSCRIPTION_COLUMNS}`,
      { bind: [id], transaction },
    )) as [WebhookSubscription[], unknown];
    return rows[0] ?? null;
  }

  /** Active subscriptions that have only failed since at least `hours` ago. */
  async listFailingFor(hours: number, limit: number): Promise<string[]> {
    const [rows] = (await this.db.sequelize.query(
      `SELECT id FROM webhook_subscriptions
        WHERE active AND failing_since IS NOT NULL AND failing_since <= now() - make_interval(hours => $1)
        ORDER BY failing_since LIMIT $2`,
      { bind: [hours, limit] },
    )) as [Array<{ id: string }>, unknown];
    return rows.map((row) => row.id);
  }

  /** Disables the subscription if it is still active and still failing that long; null otherwise (another sweep won). */
  async disableFailing(id: string, hours: number, transaction: Transaction): Promise<DisabledSubscription | null> {
    const [rows] = (await this.db.sequelize.query(
      `UPDATE webhook_subscriptions
          SET active = false, disabled_at = now(), updated_at = now(),
              disabled_reason = 'every delivery failed for ' || $2::int || ' hours (failing since ' ||
                to_char(failing_since AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') || ')'
        WHERE id = $1 AND active AND failing_since <= now() - make_interval(hours => $2::int)
        RETURNING ${DISABLED_COLUMNS}`,
      { bind: [id, hours], transaction },
    )) as [DisabledSubscription[], unknown];
    return rows[0] ?? null;
  }

  /** Disables the subscription (a receiver answered 410 Gone) if it is still active; null otherwise. */
  async disableGone(id: string, reason: string, transaction: Transaction): Promise<DisabledSubscription | null> {
    const [rows] = (await this.db.sequelize.query(
      `UPDATE webhook_subscriptions SET active = false, disabled_at = now(), updated_at = now(), disabled_reason = $2
        WHERE id = $1 AND active
        RETURNING ${DISABLED_COLUMNS}`,
      { bind: [id, reason], transaction },
    )) as [DisabledSubscription[], unknown];
    return rows[0] ?? null;
  }
}
