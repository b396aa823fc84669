import { Router } from 'express';
import { type DeliveryEnqueuer, type Logger, type Services, type TokenService } from '@wms/shared';
import { requireJwt, requireModule } from '../http/jwt-guard.js';
import { tenantScopeOf } from '../http/tenant-scope.js';

/** CONTRACT 6: webhook subscriptions (module `webhooks`). A tenant-bound user sees only its tenant's. */
export function webhooksRoutes(services: Services, tokens: TokenService, enqueuer: DeliveryEnqueuer, logger: Logger): Router {
  const router = Router();
  router.use(requireJwt(tokens), requireModule('webhooks'));
  const viewer = (principal: { tenantId: string | null }) => ({ tenantId: principal.tenantId });

  /** Queues the delivery now; when Redis does not answer the relay queues it within a poll interval. */
  const enqueueNow = async (deliveryId: string) => {
    try {
      await enqueuer.enqueue(1, [deliveryId]);
    } catch (error) {
      logger.warn({ err: error, deliveryId }, 'could not enqueue delivery now; the relay will');
    }
  };

  router.post('/', async (req, res) => {
    // The service validates the whole body; only the tenant is read here, to scope it.
    const body: unknown = req.body ?? {};
    const tenantId = tenantScopeOf(req.principal!, (body as { tenantId?: unknown }).tenantId, false);
    if (tenantId) await services.tenants.requireExisting(tenantId);
    res.status(201).json(await services.webhooks.create(body, tenantId, req.principal!.sub));
  });

  router.get('/', async (req, res) => {
    const tenantFilter = tenantScopeOf(req.principal!, req.query.tenantId, false);
    res.json(await services.webhooks.list(viewer(req.principal!), tenantFilter));
  });

  router.get('/:id', async (req, res) => {
    res.json(await services.webhooks.get(req.params.id, viewer(req.principal!)));
  });

  router.patch('/:id', async (req, res) => {
    res.json(await services.webhooks.update(req.params.id, req.body, viewer(req.principal!)));
  });

  router.delete('/:id', async (req, res) => {
    await services.webhooks.remove(req.params.id, viewer(req.principal!));
    res.status(204).end();
  });

  router.get('/:id/deliveries', async (req, res) => {
    res.json(await services.webhooks.listDeliveries(req.params.id, viewer(req.principal!), req.query));
  });

  router.post('/:id/deliveries/:deliveryId/redeliver', async (req, res) => {
    const delivery = await services.webhooks.redeliver(req.params.id, req.params.deliveryId, viewer(req.principal!));
    await enqueueNow(delivery.id);
    res.status(202).json(delivery);
  });

  router.post('/:id/test', async (req, res) => {
    const delivery = await services.webhooks.sendTest(req.params.id, viewer(req.principal!));
    await enqueueNow(delivery.id);
    res.status(202).json(delivery);
  });

  return router;
}
