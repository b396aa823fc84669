import { api, apiPage } from './client';
import type { WebhookSubscription } from './types';

export interface CreatedWebhookSubscription extends WebhookSubscription {
  /** The signing secret: in this answer only, never again. */
  secret: string;
}

export interface WebhookInput {
  url: string;
  events: string[];
  description: string;
  tenantId?: string | null;
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
  createdAt: string;
}

export interface EventType {
  name: string;
  description: string;
  subscribable: boolean;
  includedInWildcard: boolean;
}

const base = '/webhooks';
const one = (id: string) => `${base}/${encodeURIComponent(id)}`;

export const webhooksApi = {
  list: () => api.get<WebhookSubscription[]>(base),
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
  redeliver: (id: string, deliveryId: string) =>
    api.post<WebhookDelivery>(`${one(id)}/deliveries/${encodeURIComponent(deliveryId)}/redeliver`),
  /** The events a subscription can ask for, with what each means. */
  eventTypes: () => api.get<EventType[]>(`${base}/event-types`),
};
