import { FEED_MAX_LIMIT, feedEventSchema } from '@wms/events';
import { Joi, listQuerySchema, type RouteAnswer } from '@wms/platform';
import {
  ASN_STATUSES,
  ORDER_STATUSES,
  RETURN_STATUSES,
  SIMULATION_TYPES,
  asnDocumentSchema,
  asnListItemSchema,
  documentedSimulationSchema,
  grnAnswerSchema,
  grnSchema,
  movementSchema,
  movementsQuerySchema,
  orderCancelledSchema,
  orderDocumentSchema,
  orderListItemSchema,
  returnDocumentSchema,
  returnListItemSchema,
  snapshotRequestSchema,
  simulationTypeSchema,
  stockInquirySchema,
  stockQuerySchema,
} from '@wms/warehouse';
import {
  bulkBodySchema,
  bulkFieldOf,
  pageSchema,
  singleBodySchema,
  successSchema,
  type IngestEntity,
  type IngestEntityDeclaration,
  type IntegrationRoute,
} from '@wms/ingest';
import { IMPORT_ROUTES } from './imports.route-table.js';
import { CATALOGUE_ROUTES } from './catalogue.route-table.js';
import { EVENT_TYPE_ROUTES } from './event-types.route-table.js';
import { EDI_ROUTES } from './edi.route-table.js';

/**
 * The integration API's routes in one table: method, path, scope, the request schemas each route validates
 * with, and its answers. The routers mount these entries (and validate with their schemas); the OpenAPI
 * document is generated from the same entries, so the two cannot drift apart.
 */

const tenantIdField = Joi.string().guid().description('the tenant, for a cross-tenant API key');

/** `?dryRun=true` on a bulk call: validate and write in a transaction that is rolled back. */
export const bulkQuerySchema = Joi.object({ dryRun: Joi.boolean().default(false) });

export const eventFeedQuerySchema = Joi.object({
  after: Joi.string()
    .pattern(/^\d{1,18}$/)
    .description('nextCursor of the previous page; omit to start at the oldest event'),
  limit: Joi.number().integer().min(1).max(FEED_MAX_LIMIT).default(100),
  tenantId: tenantIdField,
}).label('EventFeedQuery');

const error = (description: string): RouteAnswer => ({ description, body: 'ErrorEnvelope' });

/** The answers every entity write may give besides its success. */
const ENTITY_ERRORS: Record<number, RouteAnswer> = {
  400: error('VALIDATION_FAILED, INVALID_JSON, TENANT_REQUIRED or REFERENCE_NOT_FOUND'),
  403: error('TENANT_MISMATCH'),
  409: error('IDEMPOTENCY_KEY_IN_PROGRESS or IDEMPOTENCY_KEY_MISMATCH'),
  413: error('PAYLOAD_TOO_LARGE'),
};

type EntityDeclaration = IngestEntityDeclaration<unknown, IngestEntity>;

const keyFieldOf = (handler: EntityDeclaration) => handler.keyField ?? 'referenceNo';

/** POST /<entity>: one entry, written in the gateway. */
export function singleWriteRoute(handler: EntityDeclaration): IntegrationRoute {
  const document = handler.singleStatus === 201;
  const what = handler.title.toLowerCase();
  const data = handler.documentSchema
    ? handler.documentSchema.description(`the created ${what} with its lines, as its inquiry shows it`)
    : handler.refSchema.keys({ created: Joi.boolean().required() });
  return {
    method: 'post',
    path: `/${handler.entity}`,
    scope: 'write',
    summary: document ? `Create one ${what}` : `Create or update one ${what}`,
    tag: document ? 'documents' : 'master data',
    body: singleBodySchema(handler),
    bodyName: handler.title,
    responses: {
      [handler.singleStatus]: {
        description: document ? 'created' : 'written; created tells whether it was new',
        body: successSchema(data),
      },
      ...ENTITY_ERRORS,
    },
  };
}

/** POST /<entity>/bulk: many entries, one ingest job. */
export function bulkWriteRoute(handler: EntityDeclaration): IntegrationRoute {
  const merging = handler.mergeDuplicates;
  return {
    method: 'post',
    path: `/${handler.entity}/bulk`,
    scope: 'write',
    summary: `${merging ? 'Create or update' : 'Create'} up to ${handler.maxEntries} ${handler.entity} through the ingest worker`,
    description:
      (merging
        ? 'Entries are processed in order; a later entry with the same natural key updates the earlier one. '
        : `Entries are processed in order under the key ${keyFieldOf(handler)}; a ${keyFieldOf(handler)} that exists (earlier in the body too) is an entry error 409 DUPLICATE_REFERENCE. Body: { ${bulkFieldOf(handler)}: [...] }. `) +
      'The call waits up to BULK_SYNC_TIMEOUT_MS for the job, then answers 202 with a statusUrl. ' +
      'With ?dryRun=true every entry is validated and written in a transaction that is rolled back; ' +
      'entries that would be created report id null.',
    tag: merging ? 'master data' : 'documents',
    // The route checks the envelope; each entry is checked on its own by the entry schema (an entry error
    // is one result of a 207), and the document shows both.
    body: bulkBodySchema(handler),
    documentedBody: bulkBodySchema(handler, handler.entrySchema),
    bodyName: `${handler.title}Bulk`,
    query: bulkQuerySchema,
    parameters: [
      { name: 'Prefer', in: 'header', schema: { const: 'respond-async' }, description: 'answer 202 at once' },
    ],
    responses: {
      200: { description: 'every entry succeeded', body: 'BulkEnvelope' },
      207: { description: 'at least one entry has an error', body: 'BulkEnvelope' },
      202: { description: 'the job is still running (or Prefer: respond-async); poll statusUrl', body: 'Accepted' },
      ...ENTITY_ERRORS,
    },
  };
}

const listRoute = (
  what: string,
  path: string,
  statuses: readonly string[],
  item: Joi.ObjectSchema,
): IntegrationRoute & { query: Joi.ObjectSchema } => ({
  method: 'get',
  path,
  scope: 'read',
  summary: `${what} changed at or after updatedSince, oldest change first`,
  tag: 'documents',
  query: listQuerySchema(statuses),
  responses: {
    200: {
      description: 'one page; nextCursor is null on the last',
      body: pageSchema(item, 'null on the last page'),
    },
    400: error('VALIDATION_FAILED (a bad query or cursor) or TENANT_REQUIRED'),
  },
});

/** GRN creation, order cancel, the inquiries and lists, the event feed and the job status. */
export const INTEGRATION_ROUTES = {
  grn: {
    method: 'post',
    path: '/grn',
    scope: 'write',
    summary:
      "Receive goods, against an ASN (asnNo) or blind; stock goes on hand at each line's location (default RECEIVING)",
    tag: 'documents',
    body: (grnSchema as Joi.ObjectSchema).keys({ tenantId: tenantIdField }).required(),
    bodyName: 'Grn',
    responses: {
      201: { description: 'received', body: successSchema(grnAnswerSchema) },
      400: error('VALIDATION_FAILED (over-receipt, line rules) or REFERENCE_NOT_FOUND (sku, warehouse, location, ASN)'),
      409: error('INVALID_STATE: the ASN is completed'),
    },
  },
  cancelOrder: {
    method: 'post',
    path: '/orders/:orderNo/cancel',
    scope: 'write',
    summary: 'Cancel an order before it ships: allocations released, open pick tasks cancelled, picked stock put back',
    tag: 'documents',
    body: Joi.object({ tenantId: tenantIdField }).label('CancelBody'),
    bodyName: 'CancelBody',
    bodyRequired: false,
    // A cross-tenant key may name the tenant in the query instead of the body.
    parameters: [
      {
        name: 'tenantId',
        in: 'query',
        schema: { type: 'string', format: 'uuid' },
        description: 'for a cross-tenant API key',
      },
    ],
    responses: {
      200: {
        description: 'cancelled',
        body: successSchema(orderCancelledSchema),
      },
      404: error('NOT_FOUND: no such order in the tenant'),
      409: error('INVALID_STATE: shipped or already cancelled'),
    },
  },
  order: {
    method: 'get',
    path: '/orders/:orderNo',
    scope: 'read',
    summary: 'Order inquiry: the order, its lines, pickTasks and summary',
    tag: 'documents',
    query: Joi.object({ tenantId: tenantIdField }),
    responses: {
      200: { description: 'the order', body: successSchema(orderDocumentSchema) },
      404: error('NOT_FOUND: Order <no> not found'),
    },
  },
  asn: {
    method: 'get',
    path: '/asn/:asnNo',
    scope: 'read',
    summary: 'ASN inquiry: the ASN, its lines with receivedQty, and its GRNs',
    tag: 'documents',
    query: Joi.object({ tenantId: tenantIdField }),
    responses: {
      200: { description: 'the ASN', body: successSchema(asnDocumentSchema) },
      404: error('NOT_FOUND: ASN <no> not found'),
    },
  },
  return: {
    method: 'get',
    path: '/returns/:rmaNo',
    scope: 'read',
    summary: 'Return inquiry: the return, its lines with receivedQty, and its receipts with their dispositions',
    tag: 'documents',
    query: Joi.object({ tenantId: tenantIdField }),
    responses: {
      200: { description: 'the return', body: successSchema(returnDocumentSchema) },
      404: error('NOT_FOUND: Return <rmaNo> not found'),
    },
  },
  orders: listRoute('Orders', '/orders', ORDER_STATUSES, orderListItemSchema),
  asns: listRoute('ASNs', '/asn', ASN_STATUSES, asnListItemSchema),
  returns: listRoute('Returns', '/returns', RETURN_STATUSES, returnListItemSchema),
  stock: {
    method: 'get',
    path: '/stock',
    scope: 'read',
    summary:
      'Stock of one item: rows per warehouse, location and lot with expiryDate, and their totals; with asOf, as they were then',
    tag: 'stock',
    query: stockQuerySchema,
    responses: {
      200: {
        description: 'the stock; a known item without stock has zero totals and no rows',
        body: successSchema(stockInquirySchema),
      },
      400: error(
        'VALIDATION_FAILED, or REFERENCE_NOT_FOUND: Item SKU <sku> not found | Warehouse code <code> not found',
      ),
    },
  },
  movements: {
    method: 'get',
    path: '/stock/movements',
    scope: 'read',
    summary:
      'Stock movements: the inventory ledger, one entry per change of a stock row with its cause, document and balance after, oldest first',
    tag: 'stock',
    query: movementsQuerySchema,
    responses: {
      200: {
        description: 'one page; nextCursor is null on the last',
        body: pageSchema(movementSchema, 'null on the last page'),
      },
      400: error(
        'VALIDATION_FAILED (a bad query or cursor), TENANT_REQUIRED, or REFERENCE_NOT_FOUND: Item SKU <sku> not found | Warehouse code <code> not found',
      ),
    },
  },
  events: {
    method: 'get',
    path: '/events',
    scope: 'read',
    summary:
      "Reconciliation feed: the key's tenant events (the webhook bodies), oldest first; keep nextCursor for the next call",
    tag: 'events',
    query: eventFeedQuerySchema,
    responses: {
      200: {
        description: 'one page; nextCursor stays the same when there is nothing newer',
        body: pageSchema(feedEventSchema, 'the position to read on from; the same when there is nothing newer'),
      },
      400: error('VALIDATION_FAILED (a bad cursor or limit) or TENANT_REQUIRED'),
    },
  },
  simulations: {
    method: 'post',
    path: '/simulations',
    scope: 'write',
    summary: 'Sandbox tenants only: run the real warehouse operations on a document or item, as staff would',
    description:
      'asn.received receives the ASN’s open lines in full at its warehouse’s RECEIVING location (one GRN); ' +
      'order.shipped allocates, releases, picks every task and ships the order, from whatever state it is in; ' +
      'stock.adjusted adjusts a stock row; cyclecount.variance counts one; return.received receives the return’s open ' +
      'lines in full, restocked at RECEIVING. The system runs them (the audit log ' +
      'names the API key), in one transaction: the real events, webhooks and feed entries follow, and an ' +
      'operation that cannot run changes nothing.',
    tag: 'sandbox',
    // The route checks the type, then the fields of that type; the document shows each type's body.
    body: simulationTypeSchema.keys({ tenantId: tenantIdField }).required(),
    documentedBody: documentedSimulationSchema({ tenantId: tenantIdField }),
    bodyName: 'Simulation',
    responses: {
      202: {
        description: 'run; the events it caused are in the outbox (delivered and in the feed shortly)',
        body: successSchema(
          Joi.object({
            simulationId: Joi.string().guid().description('the audit entry of the run (entity simulation)'),
            type: Joi.string().valid(...SIMULATION_TYPES),
            events: Joi.array()
              .items(Joi.object({ id: Joi.string().guid(), event: Joi.string() }).label('SimulationEvent'))
              .description('the events the run appended, in order'),
          })
            .options({ presence: 'required' })
            .label('SimulationResult'),
        ),
      },
      400: error('VALIDATION_FAILED or REFERENCE_NOT_FOUND (sku, warehouse, location)'),
      403: error('NOT_A_SANDBOX: the tenant is not a sandbox'),
      404: error('NOT_FOUND: no such ASN, order or return in the tenant'),
      409: error(
        'INSUFFICIENT_STOCK, NOTHING_TO_RECEIVE, NO_VARIANCE, INVALID_STATE or BELOW_ALLOCATED: the operation cannot run; nothing changed',
      ),
    },
  },
  snapshots: {
    method: 'post',
    path: '/stock/snapshots',
    scope: 'read',
    summary: "Export the tenant's stock as of a time: a job writes it as an NDJSON file (GET /jobs/{jobId}/file)",
    description:
      'One line per stock row with a balance at asOf: { warehouseCode, locationCode, sku, lotNo, expiryDate, ' +
      'qtyOnHand, qtyAllocated, qtyAvailable }, in warehouse, location, sku and lot order. Kept STOCK_SNAPSHOT_RETENTION_DAYS.',
    tag: 'stock',
    body: snapshotRequestSchema,
    bodyName: 'StockSnapshotRequest',
    bodyRequired: false,
    responses: {
      202: { description: 'queued; poll statusUrl', body: 'Accepted' },
      400: error('VALIDATION_FAILED, TENANT_REQUIRED, or REFERENCE_NOT_FOUND: Warehouse code <code> not found'),
    },
  },
  snapshotFile: {
    method: 'get',
    path: '/jobs/:jobId/file',
    scope: 'read',
    summary: 'The NDJSON file of a completed stock snapshot of this API key',
    tag: 'stock',
    responses: {
      200: { description: 'the stock rows, one JSON line each', media: { 'application/x-ndjson': { type: 'string' } } },
      404: error('no such snapshot for this key'),
      409: error('INVALID_STATE: the snapshot is not completed yet (or failed)'),
    },
  },
  job: {
    method: 'get',
    path: '/jobs/:jobId',
    scope: 'read',
    summary: 'State and result of a bulk job, a file import or a stock snapshot of this API key',
    tag: 'jobs',
    responses: {
      200: {
        description:
          'a bulk job: result is the bulk result once completed; an import (id import-…): data is its ImportStatus; ' +
          'a stock snapshot (id snapshot-…): data is { jobId, kind, state, asOf, warehouseCode, rows, error, createdAt, finishedAt, fileUrl }',
        body: 'JobStatus',
      },
      404: error('no such job for this key'),
    },
  },
} satisfies Record<string, IntegrationRoute>;

/** Every route of the integration API. */
export function integrationRoutes(handlers: readonly EntityDeclaration[]): IntegrationRoute[] {
  return [
    ...handlers.flatMap((handler) => [singleWriteRoute(handler), bulkWriteRoute(handler)]),
    ...Object.values(INTEGRATION_ROUTES),
    ...Object.values(IMPORT_ROUTES),
    ...Object.values(CATALOGUE_ROUTES),
    ...Object.values(EVENT_TYPE_ROUTES),
    ...Object.values(EDI_ROUTES),
  ];
}
