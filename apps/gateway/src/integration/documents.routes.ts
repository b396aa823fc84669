import './request.types.js';
import { Router, type Request, type RequestHandler } from 'express';
import {
  Joi,
  successEnvelope,
  successEnvelopeText,
  unitOfWork,
  validate,
  type AsnStatus,
  type GrnInput,
  type ListQuery,
  type OrderStatus,
  type Runtime,
  type Services,
  type StockQuery,
  type WriteContext,
  type IntegrationRoute,
} from '@wms/shared';
import { jsonBody, mount } from './scope.js';
import { bodyTenant, keyTenant } from './key-tenant.js';
import { INTEGRATION_ROUTES as ROUTES } from './route-table.js';

/**
 * GRN creation, order cancel, and the inquiries and lists of orders, ASNs and stock. (ASN and order
 * creation are entities of the ingest registry: entities.routes.ts.) Writes run in one transaction
 * with their idempotency record; reads are one statement each.
 */
export function documentRoutes(runtime: Runtime, services: Services, idempotency: RequestHandler): Router {
  const router = Router();
  const write = (
    route: IntegrationRoute,
    status: 200 | 201,
    work: (req: Request, context: WriteContext) => Promise<unknown>,
  ) =>
    mount(router, route, ...jsonBody, idempotency, async (req, res) => {
      const tenantId = await keyTenant(req, services, bodyTenant(req.body) ?? req.query.tenantId);
      const body = await unitOfWork(runtime.db, async (transaction) => {
        const envelope = successEnvelope(await work(req, { tenantId, transaction }), req.requestId);
        await req.idempotency?.storeInTransaction(status, envelope, transaction);
        return envelope;
      });
      req.idempotency?.markStored();
      res.status(status).json(body);
    });
  const read = (route: IntegrationRoute, work: (req: Request, tenantId: string) => Promise<unknown>) =>
    mount(router, route, async (req, res) => {
      const tenantId = await keyTenant(req, services, req.query.tenantId);
      res.json(successEnvelope(await work(req, tenantId), req.requestId));
    });
  // The inquiries whose answer PostgreSQL builds as JSON text: it is sent as it came.
  const readJson = (route: IntegrationRoute, work: (req: Request, tenantId: string) => Promise<string>) =>
    mount(router, route, async (req, res) => {
      const tenantId = await keyTenant(req, services, req.query.tenantId);
      const data = await work(req, tenantId);
      res.type('application/json').send(successEnvelopeText(data, req.requestId));
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
  mount(
    router,
    ROUTES.asns,
    list<AsnStatus>(services, ROUTES.asns.query, (tenantId, query) => services.asns.list(tenantId, query)),
  );
  readJson(ROUTES.order, (req, tenantId) => {
    validate(ROUTES.order.query, req.query, 'Query validation failed');
    return services.orders.inquireJson(tenantId, String(req.params.orderNo));
  });
  read(ROUTES.asn, (req, tenantId) => {
    validate(ROUTES.asn.query, req.query, 'Query validation failed');
    return services.asns.inquire(tenantId, String(req.params.asnNo));
  });
  readJson(ROUTES.stock, (req, tenantId) =>
    services.stock.inquireJson(
      tenantId,
      validate<StockQuery>(ROUTES.stock.query, req.query, 'Query validation failed'),
    ),
  );
  return router;
}

/**
 * A list answers `{ status, data: [...], nextCursor, requestId }`. The schema admits only the list's
 * statuses, so the query carries them typed.
 */
function list<Status extends string>(
  services: Services,
  schema: Joi.ObjectSchema,
  fetch: (tenantId: string, query: ListQuery<Status>) => Promise<{ data: unknown[]; nextCursor: string | null }>,
): RequestHandler {
  return async (req, res) => {
    const query = validate<ListQuery<Status> & { tenantId?: string }>(schema, req.query, 'Query validation failed');
    const tenantId = await keyTenant(req, services, query.tenantId);
    const page = await fetch(tenantId, query);
    res.json({ status: 'success', data: page.data, nextCursor: page.nextCursor, requestId: req.requestId });
  };
}
