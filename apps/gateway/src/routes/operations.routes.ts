import { Router, type Request, type RequestHandler } from 'express';
import Joi from 'joi';
import type { Transaction } from 'sequelize';
import { validate, type AdminModule, type Runtime, type Services, type TokenService, type WriteContext } from '@wms/shared';
import { requireJwt, requireModule } from '../http/jwt-guard.js';
import { tenantScopeOf } from '../http/tenant-scope.js';

const tenantQuerySchema = Joi.object({ tenantId: Joi.string().guid().description('the tenant, for a cross-tenant user') });

/**
 * CONTRACT.md section 5: the warehouse operations, for JWT users with the module's permission (read for
 * GET, write otherwise). A tenant-bound user acts in its tenant; a cross-tenant user names one with the
 * `tenantId` query parameter. Each write runs in one transaction with the events it appends.
 */
export function operationsRoutes(runtime: Runtime, services: Services, tokens: TokenService): Router {
  const router = Router();
  const guard = (module: AdminModule): RequestHandler[] => [requireJwt(tokens), requireModule(module)];
  const tenantOf = (req: Request): string => {
    const query = validate<{ tenantId?: string }>(tenantQuerySchema, req.query, 'Query validation failed');
    return tenantScopeOf(req.principal!, query.tenantId, true)!;
  };
  const inTransaction = <T>(req: Request, work: (context: WriteContext) => Promise<T>): Promise<T> => {
    const tenantId = tenantOf(req);
    return runtime.db.sequelize.transaction((transaction: Transaction) => work({ tenantId, transaction }));
  };
  const orderNo = (req: Request) => String(req.params.orderNo);

  router.get('/orders/:orderNo', ...guard('orders'), async (req, res) => {
    res.json(await services.orders.inquire(tenantOf(req), orderNo(req)));
  });

  router.post('/orders/:orderNo/allocate', ...guard('orders'), async (req, res) => {
    validate(Joi.object({}).label('AllocateBody'), req.body ?? {});
    await inTransaction(req, (context) => services.allocation.allocate(context, orderNo(req)));
    res.json(await services.orders.inquire(tenantOf(req), orderNo(req)));
  });

  router.post('/orders/:orderNo/release', ...guard('orders'), async (req, res) => {
    validate(Joi.object({}).label('ReleaseBody'), req.body ?? {});
    await inTransaction(req, (context) => services.picking.release(context, orderNo(req)));
    res.json(await services.orders.inquire(tenantOf(req), orderNo(req)));
  });

  router.post('/pick-tasks/:id/confirm', ...guard('orders'), async (req, res) => {
    res.json(await inTransaction(req, (context) => services.picking.confirm(context, String(req.params.id), req.body)));
  });

  router.post('/orders/:orderNo/ship', ...guard('orders'), async (req, res) => {
    res.status(201).json(await inTransaction(req, (context) => services.shipping.ship(context, orderNo(req), req.body)));
  });

  router.post('/stock/adjustments', ...guard('inventory'), async (req, res) => {
    res.status(201).json(await inTransaction(req, (context) => services.adjustments.adjust(context, req.body, req.principal!.sub)));
  });

  router.post('/cycle-counts', ...guard('inventory'), async (req, res) => {
    res.status(201).json(await inTransaction(req, (context) => services.cycleCounts.record(context, req.body, req.principal!.sub)));
  });

  return router;
}
