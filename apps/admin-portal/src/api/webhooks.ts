import { MAX_PAGE, allPages, http, ok, okPage } from './client';
import type { components } from './schema';
import type { WebhookSubscription } from './types';

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

const byId = (id: string) => ({ params: { path: { id } } });

export const webhooksApi = {
  list: (): Promise<WebhookSubscription[]> =>
    allPages((cursor) => okPage(http.GET('/webhooks', { params: { query: { limit: MAX_PAGE, cursor } } }))),
  get: (id: string) => ok(http.GET('/webhooks/{id}', byId(id))),
  create: (input: WebhookInput) => ok(http.POST('/webhooks', { body: input })),
  update: (id: string, patch: WebhookPatch) => ok(http.PATCH('/webhooks/{id}', { ...byId(id), body: patch })),
  remove: (id: string) => ok(http.DELETE('/webhooks/{id}', byId(id))),
  sendTest: (id: string) => ok(http.POST('/webhooks/{id}/test', byId(id))),
  deliveries: (id: string, query: { status?: DeliveryStatus; cursor?: string; limit?: number } = {}) =>
    okPage(http.GET('/webhooks/{id}/deliveries', { params: { path: { id }, query } })),
  attempts: (id: string, deliveryId: string) =>
    ok(http.GET('/webhooks/{id}/deliveries/{deliveryId}/attempts', { params: { path: { id, deliveryId } } })),
  /** A new signing secret, answered once; the previous one keeps signing beside it for `graceSeconds`. */
  rotateSecret: (id: string, graceSeconds: number) =>
    ok(http.POST('/webhooks/{id}/rotate-secret', { ...byId(id), body: { graceSeconds } })),
  /** Queues again the failed deliveries created in [since, until). */
  recover: (id: string, window: { since: string; until?: string }) =>
    ok(http.POST('/webhooks/{id}/recover', { ...byId(id), body: window })),
  /** Sends one past event to the subscription again, with the same webhook-id. */
  replay: (id: string, eventId: string) => ok(http.POST('/webhooks/{id}/replay', { ...byId(id), body: { eventId } })),
  enable: (id: string) => ok(http.POST('/webhooks/{id}/enable', byId(id))),
  /** The subscription's audit trail (needs the `audit` module). */
  auditTrail: (id: string) =>
    ok(
      http.GET('/audit-logs', {
        params: { query: { entityType: 'webhook_subscription', entityId: id, limit: 100 } },
      }),
    ),
  /** The events a subscription can ask for, with what each means. */
  eventTypes: () => ok(http.GET('/webhooks/event-types')),
  /** Tries a filter on the tenant's latest events. */
  filterTest: (input: FilterTestInput) => ok(http.POST('/webhooks/filter-test', { body: input })),
};
