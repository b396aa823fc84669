import type { Database } from '@wms/platform';

/** A subscription with its last day of failed deliveries (the portal's overview). */
export interface FailingSubscription {
  id: string;
  url: string;
  active: boolean;
  disabledReason: string | null;
  /** Deliveries of the last 24 hours that failed for good or are retrying after a failed attempt. */
  failed24h: number;
  lastError: string | null;
  lastStatusCode: number | null;
  lastFailureAt: Date | null;
}

export class FailingSubscriptionsRepository {
  constructor(private readonly db: Database) {}

  /**
   * Every subscription of one tenant (or, null, of all) with its last day of failed deliveries, read per
   * subscription through the (subscription_id, created_at) index; most failures first.
   */
  async lastDay(tenantId: string | null): Promise<FailingSubscription[]> {
    const [rows] = (await this.db.sequelize.query(
      `SELECT s.id, s.url, s.active, s.disabled_reason AS "disabledReason",
              f.failed AS "failed24h", f.last_failure_at AS "lastFailureAt",
              last.last_error AS "lastError", last.last_status_code AS "lastStatusCode"
         FROM webhook_subscriptions s
         CROSS JOIN LATERAL (
           SELECT count(*)::int AS failed, max(d.updated_at) AS last_failure_at
             FROM webhook_deliveries d
            WHERE d.subscription_id = s.id AND d.created_at > now() - interval '24 hours'
              AND (d.status = 'failed' OR (d.status = 'pending' AND d.attempts > 0))) f
         LEFT JOIN LATERAL (
           SELECT d.last_error, d.last_status_code
             FROM webhook_deliveries d
            WHERE d.subscription_id = s.id AND d.created_at > now() - interval '24 hours'
              AND (d.status = 'failed' OR (d.status = 'pending' AND d.attempts > 0))
            ORDER BY d.updated_at DESC LIMIT 1) last ON true
        WHERE ($1::uuid IS NULL OR s.tenant_id = $1::uuid) AND s.destination_kind <> 'edi'
        ORDER BY f.failed DESC, s.created_at`,
      { bind: [tenantId] },
    )) as [FailingSubscription[], unknown];
    return rows;
  }
}
