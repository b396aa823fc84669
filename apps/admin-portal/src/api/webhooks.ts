import { api, apiAll, apiPage } from './client';
import type { AuditEntry, WebhookSubscription } from './types';

export interface CreatedWebhookSubscription extends WebhookSubscription {
  /** The signing secret: in this answer only, never again. */
  secret: string;
}

export interface WebhookInput {
  url: string;
  events: string[];
  description: string;
  tenantId?: string | null;
  filter?: Record<string, unknown> | null;
  maxDeliveriesPerSecond?: number | null;
  ordered?: boolean;
}

/** What a filter would have let through of the latest events. */
export interface FilterTestResult {
  tested: number;
  matched: number;
  events: Array<{ id: string; event: string; timestamp: string; matched: boolean }>;
}

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

export interface WebhookDelivery {
  id: string;
  eventId: string;
  event: string;
  status: DeliveryStatus;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  nextAttemptAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface DeliveryAttempt {
  id: string;
  /** 0 for the first run; each redelivery starts the next. */
  run: number;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  responseBody: string | null;
  /** The wait the receiver asked for with Retry-After (ms); null when it did not. */
  retryAfterMs: number | null;
  createdAt: string;
}

export interface EventType {
  name: string;
  description: string;
  subscribable: boolean;
  includedInWildcard: boolean;
}

/** What a recover call queued: at most `limit` per call; `remaining` failed ones are left in the window. */
export interface RecoverResult {
  since: string;
  until: string;
  recovered: number;
  remaining: number;
  limit: number;
}

export interface ReplayResult {
  /** False when that event's delivery was pending already: nothing new was queued. */
  replayed: boolean;
  delivery: WebhookDelivery;
}

const base = '/webhooks';
const one = (id: string) => `${base}/${encodeURIComponent(id)}`;

export const webhooksApi = {
  list: () => apiAll<WebhookSubscription>(base),
  get: (id: string) => api.get<WebhookSubscription>(one(id)),
  create: (input: WebhookInput) => api.post<CreatedWebhookSubscription>(base, input),
  update: (id: string, patch: Partial<Omit<WebhookInput, 'tenantId'>> & { active?: boolean }) =>
    api.patch<WebhookSubscription>(one(id), patch),
  remove: (id: string) => api.delete<void>(one(id)),
  sendTest: (id: string) => api.post<WebhookDelivery>(`${one(id)}/test`),
  deliveries: (id: string, query: { status?: DeliveryStatus; cursor?: string; limit?: number } = {}) =>
    apiPage<WebhookDelivery>(`${one(id)}/deliveries`, query),
  attempts: (id: string, deliveryId: string) =>
    api.get<DeliveryAttempt[]>(`${one(id)}/deliveries/${encodeURIComponent(deliveryId)}/attempts`),
  /** A new signing secret, answered once; the previous one keeps signing beside it for `graceSeconds`. */
  rotateSecret: (id: string, graceSeconds: number) =>
    api.post<CreatedWebhookSubscription>(`${one(id)}/rotate-secret`, { graceSeconds }),
  /** Queues again the failed deliveries created in [since, until). */
  recover: (id: string, window: { since: string; until?: string }) =>
    api.post<RecoverResult>(`${one(id)}/recover`, window),
  /** Sends one past event to the subscription again, with the same webhook-id. */
  replay: (id: string, eventId: string) => api.post<ReplayResult>(`${one(id)}/replay`, { eventId }),
  enable: (id: string) => api.post<WebhookSubscription>(`${one(id)}/enable`),
  /** The subscription's audit trail (needs the `audit` module). */
  auditTrail: (id: string) =>
    api.get<AuditEntry[]>('/audit-logs', { entityType: 'webhook_subscription', entityId: id, limit: 100 }),
  /** The events a subscription can ask for, with what each means. */
  eventTypes: () => api.get<EventType[]>(`${base}/event-types`),
  /** Tries a filter on the tenant's latest events. */
  filterTest: (input: { filter: Record<string, unknown>; events?: string[]; tenantId?: string; limit?: number }) =>
    api.post<FilterTestResult>(`${base}/filter-test`, input),
};
