import { Router, type Request, type RequestHandler } from 'express';
import type { AdminModule, TokenService } from '@wms/identity';
import { Joi, unitOfWork, validate, type Runtime } from '@wms/platform';
import type { Services } from '../services.js';
import { movementsQuerySchema, type MovementsQuery, type WriteContext } from '@wms/warehouse';
import { requireJwt, requireModule } from '../http/jwt-guard.js';
import { tenantScopeOf } from '../http/tenant-scope.js';
import { idempotency } from '../integration/idempotency.middleware.js';

export const tenantQuerySchema = Joi.object({
  tenantId: Joi.string().guid().description('the tenant, for a cross-tenant user'),
});

/**
 * The warehouse operations (allocate, release, pick, ship, adjust, count) and a stock item's history, for JWT users with the module's
 * permission (read for GET, write otherwise). A tenant-bound user acts in its tenant; a cross-tenant user names
 * one with the `tenantId` query parameter. Each write runs in one transaction with the events it appends, and
 * takes an Idempotency-Key with the integration API's rules, per user.
 */
export function operationsRoutes(runtime: Runtime, services: Services, tokens: TokenService): Router {
  const router = Router();
  const guard = (module: AdminModule): RequestHandler[] => [requireJwt(tokens), requireModule(module)];
  // After the guard, so a refused token or permission is never stored as an answer; keys are per user.
  const idempotent = idempotency(services, runtime.logger, (req) => ({ userId: req.principal!.sub }));
  const tenantOf = (req: Request): string => {
    const query = validate<{ tenantId?: string }>(tenantQuerySchema, req.query, 'Query validation failed');
    return tenantScopeOf(req.principal!, query.tenantId, true)!;
  };
  const orderNo = (req: Request) => String(req.params.orderNo);

  /**
   * One write: its work and its answer in one transaction, with the Idempotency-Key's answer stored in
   * that transaction too, so a retry after a lost answer replays it instead of adjusting stock twice.
   */
  const write =
    (status: 200 | 201, work: (req: Request, context: WriteContext) => Promise<unknown>): RequestHandler =>
    async (req, res) => {
      const tenantId = tenantOf(req);
      const answer = await unitOfWork(runtime.db, async (transaction) => {
        const result = await work(req, { tenantId, transaction, caller: { userId: req.principal!.sub } });
        await req.idempotency?.storeInTransaction(status, result, transaction);
        return result;
      });
      req.idempotency?.markStored();
      res.status(status).json(answer);
    };

  router.get('/orders/:orderNo', ...guard('orders'), async (req, res) => {
    res.json(await services.orders.inquire(tenantOf(req), orderNo(req)));
  });

  router.post(
    '/orders/:orderNo/allocate',
    ...guard('orders'),
    idempotent,
    write(200, async (req, context) => {
      validate(Joi.object({}).label('AllocateBody'), req.body ?? {});
      await services.allocation.allocate(context, orderNo(req));
      return services.orders.inquire(context.tenantId, orderNo(req), context.transaction);
    }),
  );

  router.post(
    '/orders/:orderNo/release',
    ...guard('orders'),
    idempotent,
    write(200, async (req, context) => {
      validate(Joi.object({}).label('ReleaseBody'), req.body ?? {});
      await services.picking.release(context, orderNo(req));
      return services.orders.inquire(context.tenantId, orderNo(req), context.transaction);
    }),
  );

  router.post(
    '/pick-tasks/:id/confirm',
    ...guard('orders'),
    idempotent,
    write(200, (req, context) => services.picking.confirm(context, String(req.params.id), req.body ?? {})),
  );

  router.post(
    '/orders/:orderNo/ship',
    ...guard('orders'),
    idempotent,
    write(201, (req, context) => services.shipping.ship(context, orderNo(req), req.body ?? {})),
  );

  // The inventory ledger's movements, as the integration API lists them (the portal's stock history).
  router.get('/stock/movements', ...guard('inventory'), async (req, res) => {
    const query = validate<MovementsQuery & { tenantId?: string }>(
      movementsQuerySchema,
      req.query,
      'Query validation failed',
    );
    const page = await services.ledger.movements(tenantScopeOf(req.principal!, query.tenantId, true)!, query);
    res.json(page);
  });

  router.post(
    '/stock/adjustments',
    ...guard('inventory'),
    idempotent,
    write(201, (req, context) => services.adjustments.adjust(context, req.body, req.principal!.sub)),
  );

  router.post(
    '/cycle-counts',
    ...guard('inventory'),
    idempotent,
    write(201, (req, context) => services.cycleCounts.record(context, req.body, req.principal!.sub)),
  );

  return router;
}
