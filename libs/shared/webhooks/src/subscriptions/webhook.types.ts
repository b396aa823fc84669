import type { EventName } from '@wms/events';
import type { DestinationInput, DestinationView } from '../destinations/index.js';

export interface WebhookSubscription {
  id: string;
  tenantId: string | null;
  /** Where deliveries go: the HTTP endpoint, or the broker's URL with its password masked. */
  url: string;
  /** The kind of destination and its settings (a broker's exchange and routing key, or stream and subject). */
  destination: DestinationView;
  /** Event names or `*` (every business event). */
  events: string[];
  description: string;
  /** A MongoDB-style query over the event data; only matching events are delivered. Null: every event. */
  filter: Record<string, unknown> | null;
  /** The most deliveries sent per second, over every worker; null: no limit. */
  maxDeliveriesPerSecond: number | null;
  /** Deliveries of one document (order, ASN, stock position) go out one at a time, in sequence order. */
  ordered: boolean;
  /** The dated API version its bodies are rendered in (deliveries, test deliveries, replays). */
  apiVersion: string;
  active: boolean;
  /** Why the subscription was disabled (e.g. the subscriber answered 410), null when active or disabled by hand. */
  disabledReason: string | null;
  /** When it was disabled by the service (410, or failing for WEBHOOK_DISABLE_AFTER_HOURS); null otherwise. */
  disabledAt: Date | null;
  /** Time of the first failed attempt with no success since; null while deliveries succeed. */
  failingSince: Date | null;
  /** When the signing secret was last rotated. */
  secretRotatedAt: Date | null;
  /** Until when the previous secret still signs beside the current one; null when there is none. */
  previousSecretExpiresAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** The creation and rotation answer: the record plus its (new) signing secret, shown this once. */
export interface CreatedWebhookSubscription extends WebhookSubscription {
  secret: string;
}

export interface CreateSubscriptionInput {
  /** An HTTP subscription's endpoint; a broker subscription gives `destination` instead. */
  url?: string;
  destination?: DestinationInput;
  events: string[];
  tenantId?: string | null;
  description?: string;
  filter?: Record<string, unknown> | null;
  maxDeliveriesPerSecond?: number | null;
  ordered?: boolean;
  /** Default: the deployment's API_DEFAULT_VERSION. */
  apiVersion?: string;
}

/** What a recover call did, self-describing for an admin screen. */
export interface RecoverResult {
  since: string;
  until: string;
  /** Failed deliveries queued again by this call (at most `limit`). */
  recovered: number;
  /** Failed deliveries left in the window: call again with the same window to queue them. */
  remaining: number;
  limit: number;
}

export interface ReplayResult {
  /** False when the event's delivery to this subscription was already pending: nothing new was queued. */
  replayed: boolean;
  delivery: WebhookDelivery;
}

export interface UpdateSubscriptionInput {
  url?: string;
  destination?: DestinationInput;
  events?: string[];
  description?: string;
  active?: boolean;
  filter?: Record<string, unknown> | null;
  maxDeliveriesPerSecond?: number | null;
  ordered?: boolean;
  apiVersion?: string;
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
  /** When the delivery last changed: its latest attempt, or a redelivery. */
  updatedAt: Date;
}

/** One HTTP attempt of a delivery; `run` counts redeliveries (0 = the first run). */
export interface DeliveryAttempt {
  id: string;
  run: number;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  /** The start of the subscriber's answer, as much as the worker keeps. */
  responseBody: string | null;
  /** The wait the subscriber asked for with Retry-After (ms), null when it did not. */
  retryAfterMs: number | null;
  createdAt: Date;
}

/** Who is asking: a tenant-bound user sees its tenant's subscriptions only; null = cross-tenant user. */
export interface ViewerScope {
  tenantId: string | null;
}

/** What a filter test found: how many of the latest events the filter would have let through. */
export interface FilterTestResult {
  tested: number;
  matched: number;
  events: Array<{ id: string; event: EventName; timestamp: string; matched: boolean }>;
}
