import { type Router } from 'express';
import { assertEventsWithinReach, readableEvents, type TokenService } from '@wms/identity';
import { validate, type CursorPosition, type Logger } from '@wms/platform';
import type { Services } from '../services.js';
import {
  createSubscriptionSchema,
  eventTypeCatalogue,
  filterTestSchema,
  listDeliveriesSchema,
  listSubscriptionsQuerySchema,
  recoverSchema,
  replaySchema,
  rotateSecretSchema,
  updateSubscriptionSchema,
  type DeliveryEnqueuer,
} from '@wms/webhooks';
import { setNextPage, tenantScopeOf, type PersonHandler } from '../http/index.js';
import {
  GUARDED,
  INVALID,
  NEXT_PAGE_HEADERS,
  NOT_FOUND,
  adminRouter,
  error,
  listOf,
  moduleAccess,
  ok,
  type AdminEndpoint,
  type AdminRoute,
} from './admin-route.js';

interface Deps {
  services: Pick<Services, 'webhooks' | 'webhookLifecycle' | 'tenants'>;
  /** Queues the deliveries now; when Redis does not answer the relay queues them within a poll interval. */
  enqueueNow: (...deliveryIds: string[]) => Promise<void>;
}
type Endpoint = AdminEndpoint<Deps>;

const viewer = (principal: { tenantId: string | null }) => ({ tenantId: principal.tenantId });

/** 403 EVENTS_BEYOND_MODULES when the subscription named by the path reaches beyond the caller's modules. */
const subscriptionWithinReach =
  ({ services }: Deps): PersonHandler<Record<string, string>> =>
  async (req, _res, next) => {
    const subscription = await services.webhooks.get(req.params.id!, viewer(req.principal));
    assertEventsWithinReach(req.principal, subscription.events);
    next();
  };
const withinReach = { before: [subscriptionWithinReach] };

/** A route of module `webhooks` under /webhooks: read for GET, write otherwise. */
const webhook = (
  method: AdminRoute['method'],
  path: string,
  summary: string,
  responses: AdminRoute['responses'],
  handle: Endpoint['handle'],
  extra: Partial<Omit<Endpoint, 'handle'>> = {},
): Endpoint => ({
  method,
  path: `/webhooks${path}`,
  tag: 'webhooks',
  access: moduleAccess('webhooks', method),
  summary,
  handle,
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

/** Every event the service sends, with its description and the JSON Schema of its data. */
const eventTypes = eventTypeCatalogue();

/**
 * Webhook subscriptions (module `webhooks`), their delivery log, recovery and replay, each route declared
 * once. A tenant-bound user sees only its tenant's. Each event type needs read on the module that owns its
 * data (EVENT_REACH), to create a subscription and to do anything to one but look at it (itself, its
 * delivery log, which holds no event data): a subscription whose events reach beyond the caller's modules
 * is not the caller's to change, test, replay or recover.
 */
export const WEBHOOK_ROUTES: readonly Endpoint[] = [
  webhook(
    'get',
    '/event-types',
    'Every event the service sends, with its description and data schema',
    { 200: ok('the event types', listOf('EventType')) },
    () => (_req, res) => {
      res.json(eventTypes);
    },
  ),
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
    // "Would have matched 12 of 50", over event types the caller may read: naming another is a 403,
    // naming none (or `*`) tries the readable ones.
    ({ services }) =>
      async (req, res) => {
        const body: unknown = req.body ?? {};
        const { tenantId: named, events } = validate<{ tenantId?: string; events?: string[] }>(filterTestSchema, body);
        const tenantId = tenantScopeOf(req.principal, named, false);
        if (events) assertEventsWithinReach(req.principal, events);
        if (tenantId) await services.tenants.requireExisting(tenantId);
        res.json(await services.webhooks.filterTest(body, tenantId, readableEvents(req.principal)));
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
    ({ services }) =>
      async (req, res) => {
        // Validated before the tenant is looked up, so a malformed tenantId is the body's 400 like any other field.
        const body: unknown = req.body ?? {};
        const { tenantId: named, events } = validate<{ tenantId?: string | null; events: string[] }>(
          createSubscriptionSchema,
          body,
        );
        const tenantId = tenantScopeOf(req.principal, named, false);
        assertEventsWithinReach(req.principal, events);
        if (tenantId) await services.tenants.requireExisting(tenantId);
        res.status(201).json(await services.webhooks.create(body, tenantId, req.principal.sub));
      },
    { body: createSubscriptionSchema, bodyName: 'CreateSubscription' },
  ),
  webhook(
    'get',
    '',
    'The subscriptions the reader may see',
    { 200: { description: 'one page', body: listOf('WebhookSubscription'), headers: NEXT_PAGE_HEADERS } },
    ({ services }) =>
      async (req, res) => {
        const { tenantId, ...pageQuery } = validate<{ tenantId?: string; limit: number; cursor?: CursorPosition }>(
          listSubscriptionsQuerySchema,
          req.query,
          'Invalid query',
        );
        const tenantFilter = tenantScopeOf(req.principal, tenantId, false);
        const page = await services.webhooks.page(viewer(req.principal), tenantFilter, pageQuery);
        setNextPage(req, res, page.nextCursor);
        res.json(page.data);
      },
    { query: listSubscriptionsQuerySchema },
  ),
  webhook(
    'get',
    '/:id',
    'One subscription',
    { 200: ok('the subscription', 'WebhookSubscription') },
    ({ services }) =>
      async (req, res) => {
        res.json(await services.webhooks.get(req.params.id!, viewer(req.principal)));
      },
  ),
  webhook(
    'patch',
    '/:id',
    'Change a subscription (url or destination, events, description, filter, rate, order, active)',
    { 200: ok('changed', 'WebhookSubscription'), ...BEYOND },
    ({ services }) =>
      async (req, res) => {
        const sub = req.principal;
        const { events } = validate<{ events?: string[] }>(updateSubscriptionSchema, req.body ?? {});
        if (events) assertEventsWithinReach(sub, events);
        res.json(await services.webhooks.update(req.params.id!, req.body, viewer(sub), sub.sub));
      },
    { ...withinReach, body: updateSubscriptionSchema, bodyName: 'UpdateSubscription' },
  ),
  webhook(
    'delete',
    '/:id',
    'Delete a subscription and its delivery log',
    { 204: { description: 'deleted' }, ...BEYOND },
    ({ services }) =>
      async (req, res) => {
        await services.webhooks.remove(req.params.id!, viewer(req.principal), req.principal.sub);
        res.status(204).end();
      },
    withinReach,
  ),
  webhook(
    'get',
    '/:id/deliveries',
    'The delivery log, newest first, of one status or event; one page per call',
    { 200: { description: 'one page', body: listOf('WebhookDelivery'), headers: NEXT_PAGE_HEADERS } },
    ({ services }) =>
      async (req, res) => {
        const page = await services.webhooks.deliveryPage(req.params.id!, viewer(req.principal), req.query);
        setNextPage(req, res, page.nextCursor);
        res.json(page.data);
      },
    { query: listDeliveriesSchema },
  ),
  webhook(
    'get',
    '/:id/deliveries/:deliveryId/attempts',
    'The HTTP attempts of one delivery, oldest first',
    { 200: ok('the attempts', listOf('DeliveryAttempt')) },
    ({ services }) =>
      async (req, res) => {
        res.json(
          await services.webhooks.deliveryAttempts(req.params.id!, req.params.deliveryId!, viewer(req.principal)),
        );
      },
  ),
  webhook(
    'post',
    '/:id/deliveries/:deliveryId/redeliver',
    'Queue one delivery again (a new run)',
    { 202: ok('queued', 'WebhookDelivery'), ...BEYOND },
    ({ services, enqueueNow }) =>
      async (req, res) => {
        const delivery = await services.webhooks.redeliver(
          req.params.id!,
          req.params.deliveryId!,
          viewer(req.principal),
        );
        await enqueueNow(delivery.id);
        res.status(202).json(delivery);
      },
    withinReach,
  ),
  webhook(
    'post',
    '/:id/rotate-secret',
    'A new signing secret, in this answer only; the previous one signs beside it for graceSeconds',
    { 200: ok('rotated', 'CreatedWebhookSubscription'), ...BEYOND },
    // The old secret keeps signing beside the new one for graceSeconds (default 24 h).
    ({ services }) =>
      async (req, res) => {
        const sub = req.principal;
        res.json(await services.webhookLifecycle.rotateSecret(req.params.id!, req.body, viewer(sub), sub.sub));
      },
    { ...withinReach, body: rotateSecretSchema, bodyName: 'RotateSecret', bodyRequired: false },
  ),
  webhook(
    'post',
    '/:id/recover',
    'Queue again the failed deliveries created in [since, until), at most 14 days back, a capped number per call',
    { 202: ok('queued', 'RecoverResult'), ...BEYOND },
    ({ services, enqueueNow }) =>
      async (req, res) => {
        const sub = req.principal;
        const { deliveryIds, ...result } = await services.webhookLifecycle.recover(
          req.params.id!,
          req.body,
          viewer(sub),
          sub.sub,
        );
        if (deliveryIds.length) await enqueueNow(...deliveryIds);
        res.status(202).json(result);
      },
    { ...withinReach, body: recoverSchema, bodyName: 'Recover' },
  ),
  webhook(
    'post',
    '/:id/replay',
    'Send one past event to the subscription again, with the same webhook-id',
    { 202: ok('queued, or already pending', 'ReplayResult'), ...BEYOND },
    ({ services, enqueueNow }) =>
      async (req, res) => {
        const sub = req.principal;
        const result = await services.webhookLifecycle.replay(req.params.id!, req.body, viewer(sub), sub.sub);
        if (result.replayed) await enqueueNow(result.delivery.id);
        res.status(202).json(result);
      },
    { ...withinReach, body: replaySchema, bodyName: 'Replay' },
  ),
  webhook(
    'post',
    '/:id/enable',
    'Enable a subscription the service or a user disabled',
    { 200: ok('enabled', 'WebhookSubscription'), ...BEYOND },
    ({ services }) =>
      async (req, res) => {
        const sub = req.principal;
        res.json(await services.webhookLifecycle.enable(req.params.id!, viewer(sub), sub.sub));
      },
    withinReach,
  ),
  webhook(
    'post',
    '/:id/test',
    'Send a test event (webhook.test) to the subscription',
    { 202: ok('queued', 'WebhookDelivery'), ...BEYOND },
    ({ services, enqueueNow }) =>
      async (req, res) => {
        const delivery = await services.webhooks.sendTest(req.params.id!, viewer(req.principal));
        await enqueueNow(delivery.id);
        res.status(202).json(delivery);
      },
    withinReach,
  ),
];

/** The subscriptions' router, made from their declarations (mounted on the admin base path itself). */
export function webhooksRoutes(
  services: Services,
  tokens: TokenService,
  enqueuer: DeliveryEnqueuer,
  logger: Logger,
): Router {
  const enqueueNow = async (...deliveryIds: string[]) => {
    try {
      await enqueuer.enqueue(deliveryIds.length, deliveryIds);
    } catch (error) {
      logger.warn({ err: error, deliveries: deliveryIds.length }, 'could not enqueue deliveries now; the relay will');
    }
  };
  return adminRouter(WEBHOOK_ROUTES, { services, enqueueNow }, tokens);
}
