import { eventFeedQuerySchema } from './events.routes.js';
import {
  Joi,
  ASN_STATUSES,
  LIST_LIMIT_MAX,
  ORDER_STATUSES,
  grnSchema,
  joiToJsonSchema,
  stockQuerySchema,
} from '@wms/shared';

const security = [{ ApiKey: [] }, { ApiKeyAuthorization: [] }];
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const error = (description: string) => ({
  description,
  content: { 'application/json': { schema: ref('ErrorEnvelope') } },
});
const success = (data: Record<string, unknown>, description: string) => ({
  description,
  content: {
    'application/json': {
      schema: {
        type: 'object',
        properties: { status: { const: 'success' }, data, requestId: { type: 'string', format: 'uuid' } },
      },
    },
  },
});
const tenantQuery = {
  name: 'tenantId',
  in: 'query',
  schema: { type: 'string', format: 'uuid' },
  description: 'for a cross-tenant API key',
};
const pathParam = (name: string) => ({ name, in: 'path', required: true, schema: { type: 'string' } });

function queryParameters(schema: Joi.ObjectSchema) {
  const json = joiToJsonSchema(schema) as { properties: Record<string, Record<string, unknown>>; required?: string[] };
  return Object.entries(json.properties).map(([name, property]) => ({
    name,
    in: 'query',
    required: json.required?.includes(name) ?? false,
    schema: property,
  }));
}

function listPath(what: string, statuses: readonly string[]) {
  return {
    get: {
      summary: `${what} changed at or after updatedSince, oldest change first`,
      tags: ['documents'],
      security,
      parameters: [
        { name: 'updatedSince', in: 'query', schema: { type: 'string', format: 'date-time' } },
        { name: 'status', in: 'query', schema: { enum: [...statuses] } },
        { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: LIST_LIMIT_MAX, default: 100 } },
        { name: 'cursor', in: 'query', schema: { type: 'string' }, description: 'nextCursor of the previous page' },
        tenantQuery,
      ],
      responses: {
        200: {
          description: 'one page; nextCursor is null on the last',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: {
                  status: { const: 'success' },
                  data: { type: 'array', items: { type: 'object' } },
                  nextCursor: { type: ['string', 'null'] },
                  requestId: { type: 'string' },
                },
              },
            },
          },
        },
        400: error('VALIDATION_FAILED (a bad query or cursor) or TENANT_REQUIRED'),
      },
    },
  };
}

/** The paths of routes that are not ingest entities: GRN, cancel, inquiries, lists and the event feed. */
export function documentOpenApi(): {
  paths: Record<string, unknown>;
  schemas: Record<string, Record<string, unknown>>;
} {
  const schemas = { Grn: joiToJsonSchema((grnSchema as Joi.ObjectSchema).keys({ tenantId: Joi.string().guid() })) };
  const paths = {
    '/grn': {
      post: {
        summary:
          "Receive goods, against an ASN (asnNo) or blind; stock goes on hand at each line's location (default RECEIVING)",
        tags: ['documents'],
        security,
        parameters: [{ $ref: '#/components/parameters/IdempotencyKey' }],
        requestBody: { required: true, content: { 'application/json': { schema: ref('Grn') } } },
        responses: {
          201: success({ type: 'object', description: 'the GRN with its lines and asnStatus' }, 'received'),
          400: error(
            'VALIDATION_FAILED (over-receipt, line rules) or REFERENCE_NOT_FOUND (sku, warehouse, location, ASN)',
          ),
          409: error('INVALID_STATE: the ASN is completed'),
        },
      },
    },
    '/orders/{orderNo}/cancel': {
      post: {
        summary:
          'Cancel an order before it ships: allocations released, open pick tasks cancelled, picked stock put back',
        tags: ['documents'],
        security,
        parameters: [pathParam('orderNo'), { $ref: '#/components/parameters/IdempotencyKey' }, tenantQuery],
        responses: {
          200: success(
            { type: 'object', properties: { orderNo: { type: 'string' }, status: { const: 'cancelled' } } },
            'cancelled',
          ),
          404: error('NOT_FOUND: no such order in the tenant'),
          409: error('INVALID_STATE: shipped or already cancelled'),
        },
      },
    },
    '/orders/{orderNo}': {
      get: {
        summary: 'Order inquiry: the order, its lines, pickTasks and summary',
        tags: ['documents'],
        security,
        parameters: [pathParam('orderNo'), tenantQuery],
        responses: { 200: success({ type: 'object' }, 'the order'), 404: error('NOT_FOUND: Order <no> not found') },
      },
    },
    '/asn/{asnNo}': {
      get: {
        summary: 'ASN inquiry: the ASN, its lines with receivedQty, and its GRNs',
        tags: ['documents'],
        security,
        parameters: [pathParam('asnNo'), tenantQuery],
        responses: { 200: success({ type: 'object' }, 'the ASN'), 404: error('NOT_FOUND: ASN <no> not found') },
      },
    },
    '/orders': listPath('Orders', ORDER_STATUSES),
    '/asn': listPath('ASNs', ASN_STATUSES),
    '/stock': {
      get: {
        summary: 'Stock of one item: rows per warehouse, location and lot with expiryDate, and their totals',
        tags: ['stock'],
        security,
        parameters: queryParameters(stockQuerySchema),
        responses: {
          200: success({ type: 'object' }, 'the stock; a known item without stock has zero totals and no rows'),
          400: error(
            'VALIDATION_FAILED, or REFERENCE_NOT_FOUND: Item SKU <sku> not found | Warehouse code <code> not found',
          ),
        },
      },
    },
    '/events': {
      get: {
        summary:
          "Reconciliation feed: the key's tenant events (the webhook bodies), oldest first; keep nextCursor for the next call",
        tags: ['events'],
        security,
        parameters: queryParameters(eventFeedQuerySchema),
        responses: {
          200: {
            description: 'one page; nextCursor stays the same when there is nothing newer',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: {
                    status: { const: 'success' },
                    data: {
                      type: 'array',
                      items: {
                        type: 'object',
                        properties: {
                          id: { type: 'string', format: 'uuid' },
                          event: { type: 'string' },
                          timestamp: { type: 'string', format: 'date-time' },
                          data: { type: 'object' },
                        },
                      },
                    },
                    nextCursor: { type: ['string', 'null'] },
                    requestId: { type: 'string' },
                  },
                },
              },
            },
          },
          400: error('VALIDATION_FAILED (a bad cursor or limit) or TENANT_REQUIRED'),
        },
      },
    },
  };
  return { paths, schemas };
}
