/**
 * Delivery: the queue's contract, the worker's attempts over HTTP and to brokers, their permits, slots and pace,
 * retries with backoff, and the delivery metrics.
 */
export * from './webhook-delivery.contract.js';
export { WebhookDeliveryService, type AttemptOutcome, type AttemptRun } from './delivery.service.js';
export { DeliveryRepository, type DeliveryWork } from './delivery.repository.js';
export type { DocumentDestination } from './destination-senders.js';
export { RESPONSE_SNIPPET_BYTES } from './http-sender.js';
export { backoffDelay, parseRetryAfter, MAX_BACKOFF_MS } from './backoff.js';
export { AttemptPermits } from './attempt-permits.js';
export { SubscriptionSlots, type SlotDecision, type SubscriptionSlotsOptions } from './subscription-slots.js';
export { SubscriberGate, type Pace } from './subscriber-gate.js';
export { webhookDeliveries, webhookAttemptDuration, webhookMetrics } from './webhook.metrics.js';

// For outbox/ only (the package's index leaves it out): a fan-out holds the lock a batch waits on.
export { FAN_OUT_LOCK_KEY } from './delivery.repository.js';
