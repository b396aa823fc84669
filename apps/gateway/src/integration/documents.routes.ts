import './request.types.js';
import { Router, type Request, type RequestHandler, type Response } from 'express';
import {
  Joi,
  ASN_STATUSES,
  ORDER_STATUSES,
  grnSchema,
  listQuerySchema,
  stockQuerySchema,
  successEnvelope,
  successEnvelopeText,
  compileValidator,
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
} from '@wms/shared';
import { jsonBody, scoped } from './scope.js';
import { bodyTenant, keyTenant } from './key-tenant.js';

const tenantIdField = Joi.string().guid();
const grnBodySchema = (grnSchema as Joi.ObjectSchema).keys({ tenantId: tenantIdField }).required();
const cancelBodySchema = Joi.object({ tenantId: tenantIdField }).label('CancelBody');
const tenantQuerySchema = Joi.object({ tenantId: tenantIdField });
const orderListSchema = listQuerySchema(ORDER_STATUSES);
const asnListSchema = listQuerySchema(ASN_STATUSES);
const checkTenantQuery = compileValidator(tenantQuerySchema, 'Query validation failed');
const checkStockQuery = compileValidator<StockQuery>(stockQuerySchema, 'Query validation failed');

/**
 * GRN creation, order cancel, and the inquiries and lists of orders, ASNs and stock, added to the
 * integration router itself (a router of their own would cost every inquiry its dispatch). (ASN and
 * order creation are entities of the ingest registry: entities.routes.ts.) Writes run in one
 * transaction with their idempotency record; reads are one statement each.
 */
export function documentRoutes(
  router: Router,
  runtime: Runtime,
  services: Services,
  idempotency: RequestHandler,
): void {
  const write = (
    status: 200 | 201,
    work: (req: Request, context: WriteContext) => Promise<unknown>,
  ): RequestHandler[] => [
    scoped('write'),
    ...jsonBody,
    idempotency,
    async (req, res) => {
      const tenantId = await keyTenant(req, services, bodyTenant(req.body) ?? req.query.tenantId);
      const body = await unitOfWork(runtime.db, async (transaction) => {
        const envelope = successEnvelope(await work(req, { tenantId, transaction }), req.requestId);
        await req.idempotency?.storeInTransaction(status, envelope, transaction);
        return envelope;
      });
      req.idempotency?.markStored();
      res.status(status).json(body);
    },
  ];
  const read = (work: (req: Request, tenantId: string) => Promise<unknown>): RequestHandler[] => [
    scoped('read'),
    async (req, res) => {
      const tenantId = await keyTenant(req, services, req.query.tenantId);
      res.json(successEnvelope(await work(req, tenantId), req.requestId));
    },
  ];
  // The inquiries whose answer PostgreSQL builds as JSON text: it is sent as it came. Express parses the
  // query string again at every read of req.query, so it is read once.
  const readJson = (work: (req: Request, tenantId: string, query: Request['query']) => Promise<string>) => [
    scoped('read'),
    async (req: Request, res: Response) => {
      const query = req.query;
      const tenant = keyTenant(req, services, query.tenantId);
      const data = await work(req, typeof tenant === 'string' ? tenant : await tenant, query);
      res.type('application/json').send(successEnvelopeText(data, req.requestId));
    },
  ];

  // The inquiries first: a request is matched against the routes in the order they were added.
  router.get(
    '/stock',
    ...readJson((_req, tenantId, query) => services.stock.inquireJson(tenantId, checkStockQuery(query))),
  );
  router.get(
    '/orders/:orderNo',
    ...readJson((req, tenantId, query) => {
      checkTenantQuery(query);
      return services.orders.inquireJson(tenantId, String(req.params.orderNo));
    }),
  );
  router.get(
    '/asn/:asnNo',
    ...read((req, tenantId) => {
      checkTenantQuery(req.query);
      return services.asns.inquire(tenantId, String(req.params.asnNo));
    }),
  );
  router.get(
    '/orders',
    scoped('read'),
    list<OrderStatus>(services, orderListSchema, (tenantId, query) => services.orders.list(tenantId, query)),
  );
  router.get(
    '/asn',
    scoped('read'),
    list<AsnStatus>(services, asnListSchema, (tenantId, query) => services.asns.list(tenantId, query)),
  );
  router.post(
    '/grn',
    ...write(201, (req, context) => {
      const { tenantId: _named, ...input } = validate<GrnInput & { tenantId?: string }>(grnBodySchema, req.body);
      return services.grns.receive(context, input);
    }),
  );
  router.post(
    '/orders/:orderNo/cancel',
    ...write(200, (req, context) => {
      validate(cancelBodySchema, req.body ?? {});
      return services.orders.cancel(context, String(req.params.orderNo));
    }),
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
): RequestHandler {
  return async (req, res) => {
    const query = validate<ListQuery<Status> & { tenantId?: string }>(schema, req.query, 'Query validation failed');
    const tenantId = await keyTenant(req, services, query.tenantId);
    const page = await fetch(tenantId, query);
    res.json({ status: 'success', data: page.data, nextCursor: page.nextCursor, requestId: req.requestId });
  };
}
