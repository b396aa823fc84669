/**
 * Subscriptions: their administration (audited), filters, the URL guard, the delivery log they show, and their
 * secrets (made, signed with, sealed, re-sealed).
 */
export * from './webhook.types.js';
export { WebhooksService, SUBSCRIPTION_ENTITY } from './webhooks.service.js';
export {
  RECOVER_MAX_PER_CALL,
  RECOVER_WINDOW_DAYS,
  DEFAULT_SECRET_GRACE_SECONDS,
  MAX_SECRET_GRACE_SECONDS,
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
export { assertDeliverableUrl, guardedLookup, isBlockedAddress, parseWebhookUrl, type UrlPolicy } from './url-guard.js';
export {
  generateWebhookSecret,
  signWebhook,
  verifyWebhookSignature,
  WEBHOOK_TIMESTAMP_TOLERANCE_SECONDS,
  type VerifyOptions,
  webhookHeaders,
  webhookSigningKey,
} from './signing.js';
export { SecretBox, sealLegacy, DERIVED_KEY_ID, type SealingKey } from './secret-box.js';
export { resealSecrets, type ResealReport } from './secret-reseal.js';

// For the library's other folders only (the package's index leaves them out): lifecycle/ returns subscriptions
// with the same columns, and delivery/ checks a literal address before it connects.
export { SUBSCRIPTION_COLUMNS } from './subscriptions.repository.js';
export { literalAddress } from './url-guard.js';
