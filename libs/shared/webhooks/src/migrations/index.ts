import type { Migration } from '@wms/platform';
import { eventsWebhooks } from './0004-events-webhooks.js';
import { lifecycles } from './0009-lifecycles.js';
import { observability } from './0012-observability.js';
import { deliveryRecheck } from './0020-delivery-recheck.js';
import { deliveryEventType } from './0037-delivery-event-type.js';
import { webhookFilters } from './0045-webhook-filters.js';
import { webhookRateOrder } from './0046-webhook-rate-order.js';
import { subscriptionApiVersions } from './0061-subscription-api-versions.js';
import { subscriptionDestinations } from './0095-subscription-destinations.js';
import { ediDestinations } from './0097-edi-destinations.js';

/**
 * The webhook library's migrations, by name. Setup lists every library's in the one order they are applied
 * (libs/shared/setup/src/bootstrap/migrations.ts); a shipped migration keeps its name and place there.
 */
export const webhooksMigrations = {
  eventsWebhooks,
  lifecycles,
  observability,
  deliveryRecheck,
  deliveryEventType,
  webhookFilters,
  webhookRateOrder,
  subscriptionApiVersions,
  subscriptionDestinations,
  ediDestinations,
} satisfies Record<string, Migration>;
