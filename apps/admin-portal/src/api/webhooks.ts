import { api, apiAll, apiPage } from './client';
import type { components } from './schema';
import type { AuditEntry, WebhookSubscription } from './types';

type Schemas = components['schemas'];

export type CreatedWebhookSubscription = Schemas['CreatedWebhookSubscription'];
export type WebhookInput = Schemas['CreateSubscription'];
export type WebhookPatch = Schemas['UpdateSubscription'];
export type WebhookDelivery = Schemas['WebhookDelivery'];
export type DeliveryStatus = WebhookDelivery['status'];
export type DeliveryAttempt = Schemas['DeliveryAttempt'];
export type EventType = Schemas['EventType'];
/** What a filter would have let through of the latest events. */
export type FilterTestResult = Schemas['FilterTestResult'];
export type FilterTestInput = Schemas['FilterTest'];
/** What a recover call queued: at most `limit` per call; `remaining` failed ones are left in the window. */
export type RecoverResult = Schemas['RecoverResult'];
/** `replayed` false: that event's delivery was pending already, nothing new was queued. */
export type ReplayResult = Schemas['ReplayResult'];

const base = '/webhooks';
const one = (id: string) => `${base}/${encodeURIComponent(id)}`;

export const webhooksApi = {
  list: () => apiAll<WebhookSubscription>(base),
  get: (id: string) => api.get<WebhookSubscription>(one(id)),
  create: (input: WebhookInput) => api.post<CreatedWebhookSubscription>(base, input),
  update: (id: string, patch: WebhookPatch) => api.patch<WebhookSubscription>(one(id), patch),
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
  filterTest: (input: FilterTestInput) => api.post<FilterTestResult>(`${base}/filter-test`, input),
};
