import { hasModulePermission, type Access, type AdminModule, type Principal } from '@wms/identity';
import { RequestLogRepository, type KeyTrafficRow } from '@wms/api-keys';
import type { Database } from '@wms/platform';

export const BUSIEST_KEYS_SHOWN = 5;
export const FAILING_SUBSCRIPTIONS_SHOWN = 10;

export interface TrafficSummary {
  /** Answered calls, and of them those answered with status 400 or above. */
  requests24h: number;
  errors24h: number;
  errorRate: number;
  /** Calls the keys' rate limits refused (429). */
  rateLimited24h: number;
  /** Calls the keys' IP whitelists or allowed origins refused (403). */
  refused24h: number;
  /** Keys that are active and not expired. */
  activeKeys: number;
  busiestKeys: KeyTrafficRow[];
}

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

export interface WebhooksSummary {
  subscriptions: number;
  failingSubscriptions: FailingSubscription[];
}

export interface QueueDepth {
  name: string;
  /** False when Redis did not answer in time: the counts are then zeros, not a measurement. */
  available: boolean;
  waiting: number;
  active: number;
  delayed: number;
  failed: number;
}

/** What the overview shows; a part the reader may not see is null. */
export interface Overview {
  traffic: TrafficSummary | null;
  webhooks: WebhooksSummary | null;
  queues: QueueDepth[] | null;
}

/** Reads the depth of the ingest and webhook queues (the caller owns the queue connections). */
export type QueueDepthReader = () => Promise<QueueDepth[]>;

const can = (principal: Principal, module: AdminModule, access: Access = 'read') =>
  hasModulePermission(principal, module, access);

/**
 * The admin portal's first page: traffic across keys (module api-keys), failing webhook subscriptions
 * (module webhooks), queue depth (cross-tenant readers of both modules: a queue holds every tenant's work).
 * A tenant-bound reader's figures cover its tenant only.
 */
export class OverviewService {
  private readonly requestLogs: RequestLogRepository;

  constructor(private readonly db: Database) {
    this.requestLogs = new RequestLogRepository(db);
  }

  async summary(principal: Principal, readQueues: QueueDepthReader): Promise<Overview> {
    const tenantId = principal.tenantId;
    const showQueues = !tenantId && can(principal, 'api-keys') && can(principal, 'webhooks');
    const [traffic, webhooks, queues] = await Promise.all([
      can(principal, 'api-keys') ? this.traffic(tenantId) : null,
      can(principal, 'webhooks') ? this.webhooks(tenantId) : null,
      showQueues ? readQueues() : null,
    ]);
    return { traffic, webhooks, queues };
  }

  /** Calls per key by outcome over the hour now running and the 23 before it, from the hourly rollups. */
  private async traffic(tenantId: string | null): Promise<TrafficSummary> {
    const [perKey, [keys]] = await Promise.all([
      this.requestLogs.trafficByKey(tenantId),
      this.db.sequelize.query(
        `SELECT count(*)::int AS "activeKeys" FROM api_keys k
          WHERE k.active AND (k.expires_at IS NULL OR k.expires_at > now())
            AND (CAST(:tenantId AS uuid) IS NULL OR k.tenant_id = CAST(:tenantId AS uuid))`,
        { replacements: { tenantId } },
      ) as Promise<[Array<{ activeKeys: number }>, unknown]>,
    ]);
    const total = (field: 'requests24h' | 'errors24h' | 'rateLimited24h' | 'refused24h') =>
      perKey.reduce((sum, key) => sum + key[field], 0);
    const requests24h = total('requests24h');
    const errors24h = total('errors24h');
    return {
      requests24h,
      errors24h,
      errorRate: requests24h === 0 ? 0 : errors24h / requests24h,
      rateLimited24h: total('rateLimited24h'),
      refused24h: total('refused24h'),
      activeKeys: keys[0]!.activeKeys,
      busiestKeys: perKey.slice(0, BUSIEST_KEYS_SHOWN),
    };
  }

  /** Per subscription, its last day of deliveries through the (subscription_id, created_at) index. */
  private async webhooks(tenantId: string | null): Promise<WebhooksSummary> {
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
        WHERE CAST(:tenantId AS uuid) IS NULL OR s.tenant_id = CAST(:tenantId AS uuid)
        ORDER BY f.failed DESC, s.created_at`,
      { replacements: { tenantId } },
    )) as [Array<FailingSubscription>, unknown];
    const failing = rows.filter((row) => row.failed24h > 0 || row.disabledReason !== null);
    return { subscriptions: rows.length, failingSubscriptions: failing.slice(0, FAILING_SUBSCRIPTIONS_SHOWN) };
  }
}
