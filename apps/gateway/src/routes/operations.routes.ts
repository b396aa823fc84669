import { type Router, type Request } from 'express';
import type { AdminModule, TokenService } from '@wms/identity';
import { Joi, listQuerySchema, unitOfWork, validate, type ListQuery, type Runtime } from '@wms/platform';
import type { Services } from '../services.js';
import {
  RETURN_STATUSES,
  movementsQuerySchema,
  type MovementsQuery,
  type ReturnStatus,
  type WriteContext,
} from '@wms/warehouse';
import { requireJwt, requireModule } from '../http/jwt-guard.js';
import { personRoutes, type PersonHandler, type PersonRequest, type PersonRoutes } from '../http/caller.js';
import { setNextPage } from '../http/next-page.js';
import { tenantScopeOf } from '../http/tenant-scope.js';
import { idempotency } from '../integration/idempotency.middleware.js';
import { caseSensitiveRouter } from '../http/router.js';

export const tenantQuerySchema = Joi.object({
  tenantId: Joi.string().guid().description('the tenant, for a cross-tenant user'),
});

export const returnListQuerySchema = listQuerySchema(RETURN_STATUSES)
  .keys({ tenantId: tenantQuerySchema.extract('tenantId') })
  .label('ReturnListQuery');

/**
 * The warehouse operations (allocate, release, pick, ship, adjust, count, returns) and a stock item's history, for JWT users with the module's
 * permission (read for GET, write otherwise). A tenant-bound user acts in its tenant; a cross-tenant user names
 * one with the `tenantId` query parameter. Each write runs in one transaction with the events it appends, and
 * takes an Idempotency-Key with the integration API's rules, per user.
 */
export function operationsRoutes(runtime: Runtime, services: Services, tokens: TokenService): Router {
  const router = caseSensitiveRouter();
  /** The routes of staff with `module`'s permission: the JWT guard and the module check, then the handlers with the person. */
  const staff = (module: AdminModule): PersonRoutes => personRoutes(router, requireJwt(tokens), requireModule(module));
  const orders = staff('orders');
  const inventory = staff('inventory');
  // After the guard, so a refused token or permission is never stored as an answer; keys are per user.
  const idempotent = idempotency(services, runtime.logger, (req: PersonRequest) => ({ userId: req.principal.sub }));
  const tenantOf = (req: PersonRequest): string => {
    const query = validate<{ tenantId?: string }>(tenantQuerySchema, req.query, 'Query validation failed');
    return tenantScopeOf(req.principal, query.tenantId, true)!;
  };
  const orderNo = (req: Request) => String(req.params.orderNo);

  /**
   * One write: its work and its answer in one transaction, with the Idempotency-Key's answer stored in
   * that transaction too, so a retry after a lost answer replays it instead of adjusting stock twice.
   */
  const write =
    (status: 200 | 201, work: (req: PersonRequest, context: WriteContext) => Promise<unknown>): PersonHandler =>
    async (req, res) => {
      const tenantId = tenantOf(req);
      const answer = await unitOfWork(runtime.db, async (transaction) => {
        const result = await work(req, { tenantId, transaction, caller: { userId: req.principal.sub } });
        await req.idempotency?.storeInTransaction(status, result, transaction);
        return result;
      });
      req.idempotency?.markStored();
      res.status(status).json(answer);
    };

  orders.get('/orders/:orderNo', async (req, res) => {
    res.json(await services.orders.inquire(tenantOf(req), orderNo(req)));
  });

  orders.post(
    '/orders/:orderNo/allocate',
    idempotent,
    write(200, async (req, context) => {
      validate(Joi.object({}).label('AllocateBody'), req.body ?? {});
      await services.allocation.allocate(context, orderNo(req));
      return services.orders.inquire(context.tenantId, orderNo(req), context.transaction);
    }),
  );

  orders.post(
    '/orders/:orderNo/release',
    idempotent,
    write(200, async (req, context) => {
      validate(Joi.object({}).label('ReleaseBody'), req.body ?? {});
      await services.picking.release(context, orderNo(req));
      return services.orders.inquire(context.tenantId, orderNo(req), context.transaction);
    }),
  );

  orders.post(
    '/pick-tasks/:id/confirm',
    idempotent,
    write(200, (req, context) => services.picking.confirm(context, String(req.params.id), req.body ?? {})),
  );

  orders.post(
    '/orders/:orderNo/ship',
    idempotent,
    write(201, (req, context) => services.shipping.ship(context, orderNo(req), req.body ?? {})),
  );

  // The inventory ledger's movements, as the integration API lists them (the portal's stock history).
  inventory.get('/stock/movements', async (req, res) => {
    const query = validate<MovementsQuery & { tenantId?: string }>(
      movementsQuerySchema,
      req.query,
      'Query validation failed',
    );
    const page = await services.ledger.movements(tenantScopeOf(req.principal, query.tenantId, true)!, query);
    res.json(page);
  });

  inventory.post(
    '/stock/adjustments',
    idempotent,
    write(201, (req, context) => services.adjustments.adjust(context, req.body, req.principal.sub)),
  );

  inventory.post(
    '/cycle-counts',
    idempotent,
    write(201, (req, context) => services.cycleCounts.record(context, req.body, req.principal.sub)),
  );

  returnRoutes(staff('inbound'), services, idempotent, write);
  return router;
}

type Write = (
  status: 200 | 201,
  work: (req: PersonRequest, context: WriteContext) => Promise<unknown>,
) => PersonHandler;

/** Customer returns, received by staff with the inbound module: the list, the inquiry, receive, cancel and close. */
function returnRoutes(router: PersonRoutes, services: Services, idempotent: PersonHandler, write: Write): void {
  const rmaNo = (req: Request) => String(req.params.rmaNo);
  const emptyBody = (req: Request, label: string) => validate(Joi.object({}).label(label), req.body ?? {});

  router.get('/returns', async (req, res) => {
    const { tenantId, ...query } = validate<ListQuery<ReturnStatus> & { tenantId?: string }>(
      returnListQuerySchema,
      req.query,
      'Query validation failed',
    );
    const page = await services.returns.list(tenantScopeOf(req.principal, tenantId, true)!, query);
    setNextPage(req, res, page.nextCursor);
    res.json(page.data);
  });

  router.get('/returns/:rmaNo', async (req, res) => {
    const query = validate<{ tenantId?: string }>(tenantQuerySchema, req.query, 'Query validation failed');
    res.json(await services.returns.inquire(tenantScopeOf(req.principal, query.tenantId, true)!, rmaNo(req)));
  });

  router.post(
    '/returns/:rmaNo/receive',
    idempotent,
    write(200, (req, context) => services.returnReceipts.receive(context, rmaNo(req), req.body, req.principal.sub)),
  );

  router.post(
    '/returns/:rmaNo/cancel',
    idempotent,
    write(200, (req, context) => {
      emptyBody(req, 'CancelReturnBody');
      return services.returnReceipts.cancel(context, rmaNo(req));
    }),
  );

  router.post(
    '/returns/:rmaNo/close',
    idempotent,
    write(200, (req, context) => {
      emptyBody(req, 'CloseReturnBody');
      return services.returnReceipts.close(context, rmaNo(req));
    }),
  );
}
