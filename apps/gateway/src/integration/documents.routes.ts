import './request.types.js';
import { Router, type Request, type RequestHandler } from 'express';
import {
  Joi,
  ASN_STATUSES,
  ORDER_STATUSES,
  grnSchema,
  listQuerySchema,
  stockQuerySchema,
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
} from '@wms/shared';
import { jsonBody, scoped } from './scope.js';
import { bodyTenant, keyTenant } from './key-tenant.js';

const tenantIdField = Joi.string().guid();
const grnBodySchema = (grnSchema as Joi.ObjectSchema).keys({ tenantId: tenantIdField }).required();
const cancelBodySchema = Joi.object({ tenantId: tenantIdField }).label('CancelBody');
const tenantQuerySchema = Joi.object({ tenantId: tenantIdField });
const orderListSchema = listQuerySchema(ORDER_STATUSES);
const asnListSchema = listQuerySchema(ASN_STATUSES);

/**
 * GRN creation, order cancel, and the inquiries and lists of orders, ASNs and stock. (ASN and order
 * creation are entities of the ingest registry: entities.routes.ts.) Writes run in one transaction
 * with their idempotency record; reads are one statement each.
 */
export function documentRoutes(runtime: Runtime, services: Services, idempotency: RequestHandler): Router {
  const router = Router();
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
  // The inquiries whose answer PostgreSQL builds as JSON text: it is sent as it came.
  const readJson = (work: (req: Request, tenantId: string) => Promise<string>): RequestHandler[] => [
    scoped('read'),
    async (req, res) => {
      const tenantId = await keyTenant(req, services, req.query.tenantId);
      const data = await work(req, tenantId);
      res.type('application/json').send(successEnvelopeText(data, req.requestId));
    },
  ];

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
  router.get(
    '/orders/:orderNo',
    ...readJson((req, tenantId) => {
      validate(tenantQuerySchema, req.query, 'Query validation failed');
      return services.orders.inquireJson(tenantId, String(req.params.orderNo));
    }),
  );
  router.get(
    '/asn/:asnNo',
    ...read((req, tenantId) => {
      validate(tenantQuerySchema, req.query, 'Query validation failed');
      return services.asns.inquire(tenantId, String(req.params.asnNo));
    }),
  );
  router.get(
    '/stock',
    ...readJson((req, tenantId) =>
      services.stock.inquireJson(
        tenantId,
        validate<StockQuery>(stockQuerySchema, req.query, 'Query validation failed'),
      ),
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
