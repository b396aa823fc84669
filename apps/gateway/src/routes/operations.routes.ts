import { type Router } from 'express';
import type { AdminModule, TokenService } from '@wms/identity';
import { Joi, listQuerySchema, unitOfWork, validate, type ListQuery, type Runtime } from '@wms/platform';
import type { Services } from '../services.js';
import {
  RETURN_STATUSES,
  adjustmentSchema,
  confirmPickSchema,
  cycleCountSchema,
  movementsQuerySchema,
  returnReceiptSchema,
  shipSchema,
  type MovementsQuery,
  type ReturnStatus,
  type WriteContext,
} from '@wms/warehouse';
import { setNextPage, tenantScopeOf, type PersonHandler, type PersonRequest } from '../http/index.js';
import { idempotency, idempotencyOf } from '../integration/index.js';
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

export const tenantQuerySchema = Joi.object({
  tenantId: Joi.string().guid().description('the tenant, for a cross-tenant user'),
});

export const returnListQuerySchema = listQuerySchema(RETURN_STATUSES)
  .keys({ tenantId: tenantQuerySchema.extract('tenantId') })
  .label('ReturnListQuery');

interface Deps {
  runtime: Runtime;
  services: Services;
  /** The Idempotency-Key's replay, keyed per user: after the guard, so a refused caller is never stored. */
  idempotent: PersonHandler<Record<string, string>>;
}

type OperationRequest = PersonRequest<Record<string, string>>;
type Work = (req: OperationRequest, context: WriteContext, services: Services) => Promise<unknown>;

const CONFLICT: AdminRoute['responses'] = {
  409: error("INVALID_STATE (the document's state forbids it) or an Idempotency-Key conflict"),
};

/** The tenant an operation acts in: a tenant-bound user's own, or the one a cross-tenant user names. */
function tenantOf(req: OperationRequest): string {
  const query = validate<{ tenantId?: string }>(tenantQuerySchema, req.query, 'Query validation failed');
  return tenantScopeOf(req.principal, query.tenantId, true)!;
}

/**
 * One write: its work and its answer in one transaction, with the Idempotency-Key's answer stored in
 * that transaction too, so a retry after a lost answer replays it instead of adjusting stock twice.
 */
const write =
  (status: 200 | 201, work: Work) =>
  ({ runtime, services }: Deps): PersonHandler<Record<string, string>> =>
  async (req, res) => {
    const tenantId = tenantOf(req);
    const answer = await unitOfWork(runtime.db, async (transaction) => {
      const result = await work(req, { tenantId, transaction, caller: { userId: req.principal.sub } }, services);
      await idempotencyOf(req)?.storeInTransaction(status, result, transaction);
      return result;
    });
    idempotencyOf(req)?.markStored();
    res.status(status).json(answer);
  };

/** A body that must be empty (a command without parameters), refused with its label otherwise. */
const emptyBody = (req: OperationRequest, label: string) => validate(Joi.object({}).label(label), req.body ?? {});
const emptyBodyDeclared = (label: string) => ({
  body: Joi.object({}).label(label),
  bodyName: label,
  bodyRequired: false,
});

/**
 * An operation of staff with `module`'s permission (read for GET, write otherwise). A tenant-bound user acts
 * in its tenant; a cross-tenant user names one. A write takes an Idempotency-Key.
 */
const operation = (
  module: AdminModule,
  method: 'get' | 'post',
  path: string,
  summary: string,
  responses: AdminRoute['responses'],
  handle: AdminEndpoint<Deps>['handle'],
  extra: Partial<Omit<AdminRoute, 'access'>> = {},
): AdminEndpoint<Deps> => ({
  method,
  path,
  tag: 'operations',
  access: moduleAccess(module, method),
  summary,
  query: tenantQuerySchema,
  ...(method === 'post' ? { idempotent: true, before: [({ idempotent }: Deps) => idempotent] } : {}),
  ...extra,
  responses: {
    ...INVALID,
    ...GUARDED,
    ...NOT_FOUND,
    ...(method === 'post' ? CONFLICT : {}),
    ...responses,
  },
  handle,
});

/** The order after a command, read in the command's transaction. */
const orderAfter = (
  command: (services: Services, context: WriteContext, orderNo: string) => Promise<unknown>,
  label: string,
) =>
  write(200, async (req, context, services) => {
    emptyBody(req, label);
    await command(services, context, req.params.orderNo!);
    return services.orders.inquire(context.tenantId, req.params.orderNo!, context.transaction);
  });

/**
 * The warehouse operations (allocate, release, pick, ship, adjust, count, returns) and a stock item's history,
 * declared once: the router and the admin document are made from these entries. Each write runs in one
 * transaction with the events it appends, and takes an Idempotency-Key with the integration API's rules, per user.
 */
export const OPERATION_ROUTES: ReadonlyArray<AdminEndpoint<Deps>> = [
  operation(
    'orders',
    'get',
    '/orders/:orderNo',
    'Order inquiry: the order, its lines, pick tasks and summary',
    { 200: ok('the order', 'OrderInquiry') },
    ({ services }) =>
      async (req, res) => {
        res.json(await services.orders.inquire(tenantOf(req), req.params.orderNo!));
      },
  ),
  operation(
    'orders',
    'post',
    '/orders/:orderNo/allocate',
    'Allocate stock to an order, first expiry first',
    { 200: ok('the order after allocation', 'OrderInquiry') },
    orderAfter((services, context, orderNo) => services.allocation.allocate(context, orderNo), 'AllocateBody'),
  ),
  operation(
    'orders',
    'post',
    '/orders/:orderNo/release',
    'Release a fully allocated order: one pick task per allocation',
    { 200: ok('the order with its pick tasks', 'OrderInquiry') },
    orderAfter((services, context, orderNo) => services.picking.release(context, orderNo), 'ReleaseBody'),
  ),
  operation(
    'orders',
    'post',
    '/pick-tasks/:id/confirm',
    'Confirm a pick task; the last one confirmed makes the order picked',
    { 200: ok('the task and the order status', 'ConfirmedPick') },
    write(200, (req, context, services) => services.picking.confirm(context, req.params.id!, req.body ?? {})),
    { body: confirmPickSchema, bodyName: 'ConfirmPick', bodyRequired: false },
  ),
  operation(
    'orders',
    'post',
    '/orders/:orderNo/ship',
    'Ship a picked order in one shipment',
    { 201: ok('shipped', 'Shipment') },
    write(201, (req, context, services) => services.shipping.ship(context, req.params.orderNo!, req.body ?? {})),
    { body: shipSchema, bodyName: 'Ship', bodyRequired: false },
  ),
  operation(
    'inventory',
    'post',
    '/stock/adjustments',
    'Adjust the stock of one row by a signed quantity, with a reason',
    { 201: ok('adjusted', 'Adjustment') },
    write(201, (req, context, services) => services.adjustments.adjust(context, req.body, req.principal.sub)),
    { body: adjustmentSchema, bodyName: 'NewAdjustment' },
  ),
  operation(
    'inventory',
    'post',
    '/cycle-counts',
    'Record a count of one row; on hand is set to it where allocations allow',
    { 201: ok('counted', 'CycleCount') },
    write(201, (req, context, services) => services.cycleCounts.record(context, req.body, req.principal.sub)),
    { body: cycleCountSchema, bodyName: 'NewCycleCount' },
  ),
  // The inventory ledger's movements, as the integration API lists them (the portal's stock history).
  operation(
    'inventory',
    'get',
    '/stock/movements',
    "A stock item's history: the inventory ledger's movements, oldest first, in cursor pages",
    { 200: ok('one page; nextCursor is null on the last', 'StockMovementsPage') },
    ({ services }) =>
      async (req, res) => {
        const query = validate<MovementsQuery & { tenantId?: string }>(
          movementsQuerySchema,
          req.query,
          'Query validation failed',
        );
        res.json(await services.ledger.movements(tenantScopeOf(req.principal, query.tenantId, true)!, query));
      },
    { query: movementsQuerySchema },
  ),
  ...returnRoutes(),
];

/** Customer returns, received by staff with the inbound module: the list, the inquiry, receive, cancel and close. */
function returnRoutes(): AdminEndpoint<Deps>[] {
  return [
    operation(
      'inbound',
      'get',
      '/returns',
      "The tenant's returns, oldest change first, by status",
      { 200: { description: 'one page', body: listOf('ReturnSummary'), headers: NEXT_PAGE_HEADERS } },
      ({ services }) =>
        async (req, res) => {
          const { tenantId, ...query } = validate<ListQuery<ReturnStatus> & { tenantId?: string }>(
            returnListQuerySchema,
            req.query,
            'Query validation failed',
          );
          const page = await services.returns.list(tenantScopeOf(req.principal, tenantId, true)!, query);
          setNextPage(req, res, page.nextCursor);
          res.json(page.data);
        },
      { query: returnListQuerySchema },
    ),
    operation(
      'inbound',
      'get',
      '/returns/:rmaNo',
      'Return inquiry: the return, its lines and its receipts',
      { 200: ok('the return', 'Return') },
      ({ services }) =>
        async (req, res) => {
          res.json(await services.returns.inquire(tenantOf(req), req.params.rmaNo!));
        },
    ),
    operation(
      'inbound',
      'post',
      '/returns/:rmaNo/receive',
      'Receive returned goods: per line restock (default location RECEIVING), quarantine (default QUARANTINE, created on first use) or scrap (no stock)',
      {
        200: ok('the return after the receipt', 'Return'),
        409: error(
          'RECEIPT_EXCEEDS_RETURN (more than a line still expects), INVALID_STATE (not open or partially received) or an Idempotency-Key conflict',
        ),
      },
      write(200, (req, context, services) =>
        services.returnReceipts.receive(context, req.params.rmaNo!, req.body, req.principal.sub),
      ),
      { body: returnReceiptSchema, bodyName: 'ReturnReceipt' },
    ),
    operation(
      'inbound',
      'post',
      '/returns/:rmaNo/cancel',
      'Cancel an open return (nothing received yet)',
      { 200: ok('the cancelled return', 'Return') },
      write(200, (req, context, services) => {
        emptyBody(req, 'CancelReturnBody');
        return services.returnReceipts.cancel(context, req.params.rmaNo!);
      }),
      emptyBodyDeclared('CancelReturnBody'),
    ),
    operation(
      'inbound',
      'post',
      '/returns/:rmaNo/close',
      'Close a received return, or a partially received one whose rest will not come (return.completed is then sent)',
      { 200: ok('the closed return', 'Return') },
      write(200, (req, context, services) => {
        emptyBody(req, 'CloseReturnBody');
        return services.returnReceipts.close(context, req.params.rmaNo!);
      }),
      emptyBodyDeclared('CloseReturnBody'),
    ),
  ];
}

/** The operations' router, made from their declarations (mounted on the admin base path itself). */
export function operationsRoutes(runtime: Runtime, services: Services, tokens: TokenService): Router {
  const idempotent = idempotency(services, runtime.logger, (req: OperationRequest) => ({ userId: req.principal.sub }));
  return adminRouter(OPERATION_ROUTES, { runtime, services, idempotent }, tokens);
}
