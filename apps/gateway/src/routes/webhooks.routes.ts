import { type Router, type NextFunction } from 'express';
import { assertEventsWithinReach, readableEvents, type TokenService } from '@wms/identity';
import { validate, type CursorPosition, type Logger } from '@wms/platform';
import type { Services } from '../services.js';
import {
  createSubscriptionSchema,
  eventTypeCatalogue,
  filterTestSchema,
  listSubscriptionsQuerySchema,
  updateSubscriptionSchema,
  type DeliveryEnqueuer,
} from '@wms/webhooks';
import { requireJwt, requireModule } from '../http/jwt-guard.js';
import { personRoutes, type PersonRequest } from '../http/caller.js';
import { setNextPage } from '../http/next-page.js';
import { tenantScopeOf } from '../http/tenant-scope.js';
import { caseSensitiveRouter } from '../http/router.js';

/**
 * Webhook subscriptions (module `webhooks`). A tenant-bound user sees only its tenant's. Each event type
 * needs read on the module that owns its data (EVENT_REACH), to create a subscription and to do anything to
 * one but look at it (itself, its delivery log, which holds no event data): a subscription whose events reach
 * beyond the caller's modules is not the caller's to change, test, replay or recover.
 */
export function webhooksRoutes(
  services: Services,
  tokens: TokenService,
  enqueuer: DeliveryEnqueuer,
  logger: Logger,
): Router {
  const router = caseSensitiveRouter();
  router.use(requireJwt(tokens), requireModule('webhooks'));
  const routes = personRoutes(router);
  const viewer = (principal: { tenantId: string | null }) => ({ tenantId: principal.tenantId });

  /** 403 EVENTS_BEYOND_MODULES when the subscription named by the path reaches beyond the caller's modules. */
  const subscriptionWithinReach = async <P extends { id: string }>(
    req: PersonRequest<P>,
    _res: unknown,
    next: NextFunction,
  ) => {
    const subscription = await services.webhooks.get(req.params.id, viewer(req.principal));
    assertEventsWithinReach(req.principal, subscription.events);
    next();
  };

  /** Queues the deliveries now; when Redis does not answer the relay queues them within a poll interval. */
  const enqueueNow = async (...deliveryIds: string[]) => {
    try {
      await enqueuer.enqueue(deliveryIds.length, deliveryIds);
    } catch (error) {
      logger.warn({ err: error, deliveries: deliveryIds.length }, 'could not enqueue deliveries now; the relay will');
    }
  };

  /** Every event the service sends, with its description and the JSON Schema of its data. */
  const eventTypes = eventTypeCatalogue();
  routes.get('/event-types', (_req, res) => {
    res.json(eventTypes);
  });

  /**
   * Tries a filter on the tenant's latest events: "would have matched 12 of 50". Only over event types the
   * caller may read: naming another is a 403, naming none (or `*`) tries the readable ones.
   */
  routes.post('/filter-test', async (req, res) => {
    const body: unknown = req.body ?? {};
    const { tenantId: named, events } = validate<{ tenantId?: string; events?: string[] }>(filterTestSchema, body);
    const tenantId = tenantScopeOf(req.principal, named, false);
    if (events) assertEventsWithinReach(req.principal, events);
    if (tenantId) await services.tenants.requireExisting(tenantId);
    res.json(await services.webhooks.filterTest(body, tenantId, readableEvents(req.principal)));
  });

  routes.post('/', async (req, res) => {
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
  });

  routes.get('/', async (req, res) => {
    const { tenantId, ...pageQuery } = validate<{ tenantId?: string; limit: number; cursor?: CursorPosition }>(
      listSubscriptionsQuerySchema,
      req.query,
      'Invalid query',
    );
    const tenantFilter = tenantScopeOf(req.principal, tenantId, false);
    const page = await services.webhooks.page(viewer(req.principal), tenantFilter, pageQuery);
    setNextPage(req, res, page.nextCursor);
    res.json(page.data);
  });

  routes.get('/:id', async (req, res) => {
    res.json(await services.webhooks.get(req.params.id, viewer(req.principal)));
  });

  routes.patch('/:id', subscriptionWithinReach, async (req, res) => {
    const sub = req.principal;
    const { events } = validate<{ events?: string[] }>(updateSubscriptionSchema, req.body ?? {});
    if (events) assertEventsWithinReach(sub, events);
    res.json(await services.webhooks.update(req.params.id, req.body, viewer(sub), sub.sub));
  });

  routes.delete('/:id', subscriptionWithinReach, async (req, res) => {
    await services.webhooks.remove(req.params.id, viewer(req.principal), req.principal.sub);
    res.status(204).end();
  });

  routes.get('/:id/deliveries', async (req, res) => {
    const page = await services.webhooks.deliveryPage(req.params.id, viewer(req.principal), req.query);
    setNextPage(req, res, page.nextCursor);
    res.json(page.data);
  });

  routes.get('/:id/deliveries/:deliveryId/attempts', async (req, res) => {
    res.json(await services.webhooks.deliveryAttempts(req.params.id, req.params.deliveryId, viewer(req.principal)));
  });

  routes.post('/:id/deliveries/:deliveryId/redeliver', subscriptionWithinReach, async (req, res) => {
    const delivery = await services.webhooks.redeliver(req.params.id, req.params.deliveryId, viewer(req.principal));
    await enqueueNow(delivery.id);
    res.status(202).json(delivery);
  });

  /** A new signing secret, shown once; the old one keeps signing beside it for graceSeconds (default 24 h). */
  routes.post('/:id/rotate-secret', subscriptionWithinReach, async (req, res) => {
    const sub = req.principal;
    res.json(await services.webhookLifecycle.rotateSecret(req.params.id, req.body, viewer(sub), sub.sub));
  });

  /** Queues again the failed deliveries of a window (at most 14 days back, a capped number per call). */
  routes.post('/:id/recover', subscriptionWithinReach, async (req, res) => {
    const sub = req.principal;
    const { deliveryIds, ...result } = await services.webhookLifecycle.recover(
      req.params.id,
      req.body,
      viewer(sub),
      sub.sub,
    );
    if (deliveryIds.length) await enqueueNow(...deliveryIds);
    res.status(202).json(result);
  });

  /** Sends one past event to the subscription again, same webhook-id. */
  routes.post('/:id/replay', subscriptionWithinReach, async (req, res) => {
    const sub = req.principal;
    const result = await services.webhookLifecycle.replay(req.params.id, req.body, viewer(sub), sub.sub);
    if (result.replayed) await enqueueNow(result.delivery.id);
    res.status(202).json(result);
  });

  routes.post('/:id/enable', subscriptionWithinReach, async (req, res) => {
    const sub = req.principal;
    res.json(await services.webhookLifecycle.enable(req.params.id, viewer(sub), sub.sub));
  });

  routes.post('/:id/test', subscriptionWithinReach, async (req, res) => {
    const delivery = await services.webhooks.sendTest(req.params.id, viewer(req.principal));
    await enqueueNow(delivery.id);
    res.status(202).json(delivery);
  });

  return router;
}
