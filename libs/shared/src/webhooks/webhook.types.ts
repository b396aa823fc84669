import type { EventName } from '../events/index.js';

export interface WebhookSubscription {
  id: string;
  tenantId: string | null;
  url: string;
  /** Event names or `*` (every business event). */
  events: string[];
  description: string;
  active: boolean;
  /** Why the subscription was disabled (e.g. the subscriber answered 410), null when active or disabled by hand. */
  disabledReason: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** The creation answer: the record plus its signing secret, shown this once. */
export interface CreatedWebhookSubscription extends WebhookSubscription {
  secret: string;
}

export interface CreateSubscriptionInput {
  url: string;
  events: string[];
  tenantId?: string | null;
  description?: string;
}

export interface UpdateSubscriptionInput {
  url?: string;
  events?: string[];
  description?: string;
  active?: boolean;
}

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

export interface WebhookDelivery {
  id: string;
  eventId: string;
  event: EventName;
  status: DeliveryStatus;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  nextAttemptAt: Date | null;
  createdAt: Date;
}

/** Who is asking: a tenant-bound user sees its tenant's subscriptions only; null = cross-tenant user. */
export interface ViewerScope {
  tenantId: string | null;
}
