import { requestIdOf, type KeyHandler, type KeyRequest } from '../http/index.js';
import type { Request, Router } from 'express';
import {
  Joi,
  compileValidator,
  quantityFormatOf,
  unitOfWork,
  validate,
  type ListQuery,
  type Runtime,
} from '@wms/platform';
import type { Services } from '../services.js';
import {
  type AsnStatus,
  type GrnInput,
  type MovementsQuery,
  type OrderStatus,
  type ReturnStatus,
  type StockQuery,
  type WriteContext,
} from '@wms/warehouse';
import { successEnvelope, successEnvelopeText, type IntegrationRoute } from '@wms/ingest';
import { jsonBody, mount } from './scope.js';
import { bodyTenant, keyTenant } from './key-tenant.js';
import { INTEGRATION_ROUTES as ROUTES } from './route-table.js';
import { versionOf } from './api-version.middleware.js';
import { idempotencyOf } from './idempotency.middleware.js';

const checkOrderQuery = compileValidator(ROUTES.order.query!, 'Query validation failed');
const checkAsnQuery = compileValidator(ROUTES.asn.query!, 'Query validation failed');
const checkReturnQuery = compileValidator(ROUTES.return.query!, 'Query validation failed');
const checkStockQuery = compileValidator<StockQuery>(ROUTES.stock.query!, 'Query validation failed');

/**
 * GRN creation, order cancel, and the inquiries and lists of orders, ASNs, returns and stock, added to the
 * integration router itself (a router of their own would cost every inquiry its dispatch). (ASN and
 * order creation are entities of the ingest registry: entities.routes.ts.) Writes run in one
 * transaction with their idempotency record; reads are one statement each.
 */
export function documentRoutes(router: Router, runtime: Runtime, services: Services, idempotency: KeyHandler): void {
  const write = (
    route: IntegrationRoute,
    status: 200 | 201,
    work: (req: KeyRequest, context: WriteContext) => Promise<unknown>,
  ) =>
    mount(router, route, ...jsonBody, idempotency, async (req, res) => {
      const tenantId = await keyTenant(req, services, bodyTenant(req.body) ?? req.query.tenantId);
      const body = await unitOfWork(runtime.db, async (transaction) => {
        const envelope = successEnvelope(
          await work(req, { tenantId, transaction, caller: { apiKeyId: req.apiKey.id } }),
          requestIdOf(req),
        );
        await idempotencyOf(req)?.storeInTransaction(status, envelope, transaction);
        return envelope;
      });
      idempotencyOf(req)?.markStored();
      res.status(status).json(body);
    });
  const read = (route: IntegrationRoute, work: (req: KeyRequest, tenantId: string) => Promise<unknown>) =>
    mount(router, route, async (req, res) => {
      const tenantId = await keyTenant(req, services, req.query.tenantId);
      res.json(successEnvelope(await work(req, tenantId), requestIdOf(req)));
    });
  // The inquiries whose answer PostgreSQL builds as JSON text: it is sent as it came. Express parses the
  // query string again at every read of req.query, so it is read once.
  const readJson = (
    route: IntegrationRoute,
    work: (req: KeyRequest, tenantId: string, query: Request['query']) => Promise<string>,
  ) =>
    mount(router, route, async (req, res) => {
      const query = req.query;
      const tenant = keyTenant(req, services, query.tenantId);
      const data = await work(req, typeof tenant === 'string' ? tenant : await tenant, query);
      res.type('application/json').send(successEnvelopeText(data, requestIdOf(req)));
    });

  // The inquiries first: a request is matched against the routes in the order they were added.
  readJson(ROUTES.stock, (req, tenantId, query) =>
    services.stock.inquireJson(tenantId, checkStockQuery(query), quantityFormatOf(versionOf(req))),
  );
  readJson(ROUTES.order, (req, tenantId, query) => {
    checkOrderQuery(query);
    return services.orders.inquireJson(
      tenantId,
      String(req.params.orderNo),
      undefined,
      quantityFormatOf(versionOf(req)),
    );
  });
  read(ROUTES.asn, (req, tenantId) => {
    checkAsnQuery(req.query);
    return services.asns.inquire(tenantId, String(req.params.asnNo));
  });
  read(ROUTES.return, (req, tenantId) => {
    checkReturnQuery(req.query);
    return services.returns.inquire(tenantId, String(req.params.rmaNo), 'decimal');
  });

  write(ROUTES.grn, 201, (req, context) => {
    const { tenantId: _named, ...input } = validate<GrnInput & { tenantId?: string }>(ROUTES.grn.body, req.body);
    return services.grns.receive(context, input);
  });
  write(ROUTES.cancelOrder, 200, (req, context) => {
    validate(ROUTES.cancelOrder.body, req.body ?? {});
    return services.orders.cancel(context, String(req.params.orderNo));
  });

  mount(
    router,
    ROUTES.orders,
    list<OrderStatus>(services, ROUTES.orders.query, (tenantId, query) => services.orders.list(tenantId, query)),
  );
  mount(router, ROUTES.movements, async (req, res) => {
    const query = validate<MovementsQuery & { tenantId?: string }>(
      ROUTES.movements.query!,
      req.query,
      'Query validation failed',
    );
    const tenantId = await keyTenant(req, services, query.tenantId);
    // Read as exact decimal strings: the version renderer keeps them, or makes numbers of them for 2026-11-21.
    const page = await services.ledger.movements(tenantId, query, 'decimal');
    res.json({ status: 'success', data: page.data, nextCursor: page.nextCursor, requestId: requestIdOf(req) });
  });
  mount(
    router,
    ROUTES.asns,
    list<AsnStatus>(services, ROUTES.asns.query, (tenantId, query) => services.asns.list(tenantId, query)),
  );
  mount(
    router,
    ROUTES.returns,
    list<ReturnStatus>(services, ROUTES.returns.query, (tenantId, query) =>
      services.returns.list(tenantId, query, 'decimal'),
    ),
  );
}

/**
 * A list answers `{ status, data: [...], nextCursor, requestId }`. The schema admits only the list's
 * statuses, so the query carries them typed.
 */
function list<Status extends string>(
  services: Services,
  schema: Joi.ObjectSchema,
  fetch: (tenantId: string, query: ListQuery<Status>) => Promise<{ data: unknown[]; nextCursor: string | null }>,
): KeyHandler {
  return async (req, res) => {
    const query = validate<ListQuery<Status> & { tenantId?: string }>(schema, req.query, 'Query validation failed');
    const tenantId = await keyTenant(req, services, query.tenantId);
    const page = await fetch(tenantId, query);
    res.json({ status: 'success', data: page.data, nextCursor: page.nextCursor, requestId: requestIdOf(req) });
  };
}
