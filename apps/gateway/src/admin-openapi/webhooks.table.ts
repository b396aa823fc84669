import {
  createSubscriptionSchema,
  filterTestSchema,
  listDeliveriesSchema,
  listSubscriptionsQuerySchema,
  recoverSchema,
  replaySchema,
  rotateSecretSchema,
  updateSubscriptionSchema,
} from '@wms/webhooks';
import {
  GUARDED,
  INVALID,
  NEXT_PAGE_HEADERS,
  NOT_FOUND,
  error,
  listOf,
  moduleAccess,
  ok,
  type AdminRoute,
} from './admin-route.js';

const webhook = (
  method: AdminRoute['method'],
  path: string,
  summary: string,
  responses: AdminRoute['responses'],
  extra: Partial<AdminRoute> = {},
): AdminRoute => ({
  method,
  path: `/webhooks${path}`,
  tag: 'webhooks',
  access: moduleAccess('webhooks', method),
  summary,
  ...extra,
  // The route's own answers last: a 403 it names says more than the guard's.
  responses: { ...(extra.body || extra.query ? INVALID : {}), ...GUARDED, ...NOT_FOUND, ...responses },
});

/** Every action on a subscription but looking at it: the caller must read what its events reach. */
const BEYOND: AdminRoute['responses'] = {
  403: error(
    "the user lacks the webhooks module, or EVENTS_BEYOND_MODULES: the subscription's events reach beyond the user's read modules",
  ),
};

/** Webhook subscriptions, their delivery log, recovery and replay. */
export const WEBHOOK_ROUTES: AdminRoute[] = [
  webhook('get', '/event-types', 'Every event the service sends, with its description and data schema', {
    200: ok('the event types', listOf('EventType')),
  }),
  webhook(
    'post',
    '/filter-test',
    "Try a filter on the tenant's latest events (of the types named): how many it would have let through",
    {
      200: ok('what the filter matched', 'FilterTestResult'),
      403: error(
        'the user lacks the webhooks module; EVENTS_BEYOND_MODULES: an event type named (or *) is beyond its read modules (none named: the readable ones are tried); TENANT_MISMATCH',
      ),
    },
    { body: filterTestSchema, bodyName: 'FilterTest' },
  ),
  webhook(
    'post',
    '',
    'Subscribe a URL, or a RabbitMQ exchange or JetStream stream (destination), to events; the signing secret is in this answer only',
    {
      201: ok('created', 'CreatedWebhookSubscription'),
      403: error(
        'the user lacks the webhooks module, or EVENTS_BEYOND_MODULES: an event type is beyond its read modules',
      ),
      409: error(
        "SUBSCRIPTION_LIMIT: the tenant's events already fan out to WEBHOOK_MAX_SUBSCRIPTIONS_PER_TENANT subscriptions (cross-tenant ones counted toward every tenant)",
      ),
    },
    { body: createSubscriptionSchema, bodyName: 'CreateSubscription' },
  ),
  webhook(
    'get',
    '',
    'The subscriptions the reader may see',
    { 200: { description: 'one page', body: listOf('WebhookSubscription'), headers: NEXT_PAGE_HEADERS } },
    { query: listSubscriptionsQuerySchema },
  ),
  webhook('get', '/:id', 'One subscription', { 200: ok('the subscription', 'WebhookSubscription') }),
  webhook(
    'patch',
    '/:id',
    'Change a subscription (url or destination, events, description, filter, rate, order, active)',
    { 200: ok('changed', 'WebhookSubscription'), ...BEYOND },
    { body: updateSubscriptionSchema, bodyName: 'UpdateSubscription' },
  ),
  webhook('delete', '/:id', 'Delete a subscription and its delivery log', {
    204: { description: 'deleted' },
    ...BEYOND,
  }),
  webhook(
    'get',
    '/:id/deliveries',
    'The delivery log, newest first, of one status or event; one page per call',
    { 200: { description: 'one page', body: listOf('WebhookDelivery'), headers: NEXT_PAGE_HEADERS } },
    { query: listDeliveriesSchema },
  ),
  webhook('get', '/:id/deliveries/:deliveryId/attempts', 'The HTTP attempts of one delivery, oldest first', {
    200: ok('the attempts', listOf('DeliveryAttempt')),
  }),
  webhook('post', '/:id/deliveries/:deliveryId/redeliver', 'Queue one delivery again (a new run)', {
    202: ok('queued', 'WebhookDelivery'),
    ...BEYOND,
  }),
  webhook(
    'post',
    '/:id/rotate-secret',
    'A new signing secret, in this answer only; the previous one signs beside it for graceSeconds',
    { 200: ok('rotated', 'CreatedWebhookSubscription'), ...BEYOND },
    { body: rotateSecretSchema, bodyName: 'RotateSecret', bodyRequired: false },
  ),
  webhook(
    'post',
    '/:id/recover',
    'Queue again the failed deliveries created in [since, until), at most 14 days back, a capped number per call',
    { 202: ok('queued', 'RecoverResult'), ...BEYOND },
    { body: recoverSchema, bodyName: 'Recover' },
  ),
  webhook(
    'post',
    '/:id/replay',
    'Send one past event to the subscription again, with the same webhook-id',
    { 202: ok('queued, or already pending', 'ReplayResult'), ...BEYOND },
    { body: replaySchema, bodyName: 'Replay' },
  ),
  webhook('post', '/:id/enable', 'Enable a subscription the service or a user disabled', {
    200: ok('enabled', 'WebhookSubscription'),
    ...BEYOND,
  }),
  webhook('post', '/:id/test', 'Send a test event (webhook.test) to the subscription', {
    202: ok('queued', 'WebhookDelivery'),
    ...BEYOND,
  }),
];
