import { hasModulePermission, type Access, type AdminModule, type Principal } from '@wms/identity';
import { ApiKeysRepository, type KeyTrafficRow, type RequestLogRepository } from '@wms/api-keys';
import type { Database } from '@wms/platform';
import { FailingSubscriptionsRepository, type FailingSubscription } from '@wms/webhooks';

export type { FailingSubscription };

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
  private readonly apiKeys: ApiKeysRepository;
  private readonly subscriptions: FailingSubscriptionsRepository;

  constructor(db: Database) {
    this.apiKeys = new ApiKeysRepository(db);
    this.requestLogs = this.apiKeys.requestLogs;
    this.subscriptions = new FailingSubscriptionsRepository(db);
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
    const [perKey, activeKeys] = await Promise.all([
      this.requestLogs.trafficByKey(tenantId),
      this.apiKeys.countActive(tenantId),
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
      activeKeys,
      busiestKeys: perKey.slice(0, BUSIEST_KEYS_SHOWN),
    };
  }

  /** Per subscription, its last day of deliveries through the (subscription_id, created_at) index. */
  private async webhooks(tenantId: string | null): Promise<WebhooksSummary> {
    const rows = await this.subscriptions.lastDay(tenantId);
    const failing = rows.filter((row) => row.failed24h > 0 || row.disabledReason !== null);
    return { subscriptions: rows.length, failingSubscriptions: failing.slice(0, FAILING_SUBSCRIPTIONS_SHOWN) };
  }
}
