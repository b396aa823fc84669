export * from './webhook.types.js';
export { WebhooksService, SUBSCRIPTION_ENTITY } from './webhooks.service.js';
export { WebhookDeliveryService, type AttemptOutcome, type AttemptRun } from './delivery.service.js';
export { AttemptPermits } from './attempt-permits.js';
export { DeliveryEnqueuer, deliveryJobsOf, type RecheckPass } from './delivery-enqueuer.js';
export { OutboxRelay, type RelayOptions, type RelayPass } from './outbox-relay.js';
export { SecretBox, sealLegacy, DERIVED_KEY_ID, type SealingKey } from './secret-box.js';
export { WebhookLifecycleService } from './webhook-lifecycle.service.js';
export { RECOVERY_PRIORITY } from './lifecycle.repository.js';
export {
  RECOVER_MAX_PER_CALL,
  RECOVER_WINDOW_DAYS,
  DEFAULT_SECRET_GRACE_SECONDS,
  MAX_SECRET_GRACE_SECONDS,
} from './webhook.schema.js';
export {
  generateWebhookSecret,
  signWebhook,
  verifyWebhookSignature,
  WEBHOOK_TIMESTAMP_TOLERANCE_SECONDS,
  type VerifyOptions,
  webhookHeaders,
  webhookSigningKey,
} from './signing.js';
export { assertDeliverableUrl, guardedLookup, isBlockedAddress, parseWebhookUrl, type UrlPolicy } from './url-guard.js';
export { backoffDelay, parseRetryAfter, MAX_BACKOFF_MS } from './backoff.js';
export { RESPONSE_SNIPPET_BYTES } from './http-sender.js';
export { SubscriptionSlots, type SlotDecision, type SubscriptionSlotsOptions } from './subscription-slots.js';
export {
  createSubscriptionSchema,
  filterTestSchema,
  FILTER_TEST_MAX_EVENTS,
  updateSubscriptionSchema,
  listSubscriptionsQuerySchema,
  listDeliveriesSchema,
  rotateSecretSchema,
  recoverSchema,
  replaySchema,
} from './webhook.schema.js';
export { resealSecrets, type ResealReport } from './secret-reseal.js';
export { eventTypeCatalogue, webhooksOpenApi, type EventTypeDescription } from './event-types.js';
export { readOutboxStats } from './outbox-stats.js';
export {
  compileFilter,
  filterProblem,
  FilterCache,
  FILTER_FIELD_OPERATORS,
  FILTER_LIMITS,
  FILTER_LOGICAL_OPERATORS,
  type EventFilter,
  type FilterProblem,
} from './event-filter.js';
export { SubscriberGate, type Pace } from './subscriber-gate.js';
export { DeliveryRepository, type DeliveryWork } from './delivery.repository.js';
export { DeliveredEventsRepository } from './delivered-events.repository.js';
export { FailingSubscriptionsRepository, type FailingSubscription } from './failing-subscriptions.repository.js';
export * from './webhook-delivery.contract.js';
export { outboxGauges, type OutboxStats } from './outbox-gauges.js';
export { webhookDeliveries, webhookAttemptDuration, webhookMetrics } from './webhook.metrics.js';
export { asyncApiDocument, ASYNCAPI_PATH } from './asyncapi.js';
export { DocumentSubscriptions } from './document-subscriptions.js';
export type { DocumentSubscriptionValues } from './document-subscriptions.repository.js';
export type { DocumentDestination } from './destination-senders.js';
