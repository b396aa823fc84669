import type { WebhookSubscription } from './webhook.types.js';

/** The fields an audit entry of a subscription change compares: never a secret (a destination shows its URL with the password masked). */
export const AUDITED_FIELDS = [
  'url',
  'destination',
  'events',
  'description',
  'filter',
  'maxDeliveriesPerSecond',
  'ordered',
  'apiVersion',
  'active',
  'disabledReason',
] as const;

/** What an audit entry keeps of a subscription that was created or deleted. */
export function snapshot(subscription: WebhookSubscription): Record<string, unknown> {
  const { url, destination, events, description, filter, maxDeliveriesPerSecond, ordered, apiVersion } = subscription;
  const { tenantId, active } = subscription;
  return {
    url,
    destination,
    events,
    description,
    filter,
    maxDeliveriesPerSecond,
    ordered,
    apiVersion,
    tenantId,
    active,
  };
}
