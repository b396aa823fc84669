/**
 * Lifecycle: a subscription's life after creation (secret rotation, recover, replay, disabling and enabling), the
 * failing subscriptions' overview, and the subscriptions kept for document destinations.
 */
export { WebhookLifecycleService } from './webhook-lifecycle.service.js';
export { RECOVERY_PRIORITY } from './lifecycle.repository.js';
export { FailingSubscriptionsRepository, type FailingSubscription } from './failing-subscriptions.repository.js';
export { DocumentSubscriptions } from './document-subscriptions.js';
export type { DocumentSubscriptionValues } from './document-subscriptions.repository.js';
