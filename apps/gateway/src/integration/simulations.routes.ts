import { caseSensitiveRouter, requestIdOf, type KeyHandler } from '../http/index.js';
import { type Router } from 'express';
import { AppError, unitOfWork, type Runtime } from '@wms/platform';
import { successEnvelope } from '@wms/ingest';
import type { Services } from '../services.js';
import { bodyTenant, keyTenant } from './key-tenant.js';
import { jsonBody, mount } from './scope.js';
import { INTEGRATION_ROUTES } from './route-table.js';
import { idempotencyOf } from './idempotency.middleware.js';

/**
 * POST /simulations: a sandbox tenant's key runs real warehouse operations (SimulationsService). The tenant is
 * checked before the Idempotency-Key is claimed, so a refusal is never stored as an answer; the run, its audit
 * entry and the stored answer share one transaction, so a simulation that cannot run leaves nothing behind.
 */
export function simulationRoutes(runtime: Runtime, services: Services, idempotency: KeyHandler): Router {
  const router = caseSensitiveRouter();
  const route = INTEGRATION_ROUTES.simulations;
  const sandboxOnly: KeyHandler = async (req, res, next) => {
    const tenantId = await keyTenant(req, services, bodyTenant(req.body));
    res.locals.tenantId = tenantId;
    if (!(await services.tenants.isSandbox(tenantId))) {
      throw AppError.forbidden(
        'Simulations run in sandbox tenants only; this tenant is not a sandbox',
        'NOT_A_SANDBOX',
      );
    }
    next();
  };
  mount(router, route, ...jsonBody, sandboxOnly, idempotency, async (req, res) => {
    const tenantId = res.locals.tenantId as string;
    const { tenantId: _named, ...body } = (req.body ?? {}) as Record<string, unknown>;
    const answer = await unitOfWork(runtime.db, async (transaction) => {
      const result = await services.simulations.run(
        { tenantId, transaction, caller: { apiKeyId: req.apiKey.id } },
        body,
        { apiKeyId: req.apiKey.id },
      );
      const envelope = successEnvelope(result, requestIdOf(req));
      await idempotencyOf(req)?.storeInTransaction(202, envelope, transaction);
      return envelope;
    });
    idempotencyOf(req)?.markStored();
    res.status(202).json(answer);
  });
  return router;
}
