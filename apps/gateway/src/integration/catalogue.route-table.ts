import { Joi, type RouteAnswer } from '@wms/platform';
import {
  CATALOGUE_KEYS_MAX,
  STOCK_LEVELS_SKUS_MAX,
  itemListQuerySchema,
  itemViewSchema,
  locationListQuerySchema,
  locationViewSchema,
  partnerListQuerySchema,
  partnerViewSchema,
  stockInquirySchema,
  stockLevelsQuerySchema,
} from '@wms/warehouse';
import { pageSchema, successSchema, type IntegrationRoute } from '@wms/ingest';

/**
 * The reads of what an integration pushed: pages of items, partners and locations, one item by sku, and the
 * stock of many skus in one call. Mounted by catalogue.routes.ts, documented in the OpenAPI document.
 */

const error = (description: string): RouteAnswer => ({ description, body: 'ErrorEnvelope' });

const BAD_LIST = error(
  `VALIDATION_FAILED (a bad query or cursor, a limit out of range, more than ${CATALOGUE_KEYS_MAX} keys) or TENANT_REQUIRED`,
);

const catalogueList = (
  what: string,
  path: string,
  keys: string,
  query: Joi.ObjectSchema,
  view: Joi.ObjectSchema,
): IntegrationRoute & { query: Joi.ObjectSchema } => ({
  method: 'get',
  path,
  scope: 'read',
  summary: `${what} changed at or after updatedSince, oldest change first`,
  description: `Narrowed to natural keys by repeating ${keys} (${keys}=A&${keys}=B, at most ${CATALOGUE_KEYS_MAX}). Walk the pages with nextCursor.`,
  tag: 'master data',
  query,
  responses: {
    200: { description: 'one page; nextCursor is null on the last', body: pageSchema(view, 'null on the last page') },
    400: BAD_LIST,
  },
});

export const CATALOGUE_ROUTES = {
  items: catalogueList('Items', '/items', 'sku', itemListQuerySchema, itemViewSchema),
  item: {
    method: 'get',
    path: '/items/:sku',
    scope: 'read',
    summary: 'One item by its sku, as its upserts wrote it',
    tag: 'master data',
    query: Joi.object({ tenantId: Joi.string().guid().description('the tenant, for a cross-tenant API key') }),
    responses: {
      200: { description: 'the item', body: successSchema(itemViewSchema) },
      404: error('NOT_FOUND: Item SKU <sku> not found'),
    },
  },
  partners: catalogueList('Partners', '/partners', 'code', partnerListQuerySchema, partnerViewSchema),
  locations: {
    ...catalogueList('Locations', '/locations', 'code', locationListQuerySchema, locationViewSchema),
    responses: {
      200: {
        description: 'one page; nextCursor is null on the last',
        body: pageSchema(locationViewSchema, 'null on the last page'),
      },
      400: error(`${BAD_LIST.description}, or REFERENCE_NOT_FOUND: Warehouse code <code> not found`),
    },
  },
  stockLevels: {
    method: 'get',
    path: '/stock/levels',
    scope: 'read',
    summary: `Stock of up to ${STOCK_LEVELS_SKUS_MAX} items in one call, each as GET /stock answers it, in the order asked`,
    description:
      'Repeat sku (sku=A&sku=B); a sku repeated is answered once. With warehouseCode, only that warehouse’s rows.',
    tag: 'stock',
    query: stockLevelsQuerySchema,
    responses: {
      200: {
        description: 'the stock of each sku; a known item without stock has zero totals and no rows',
        body: successSchema(Joi.array().items(stockInquirySchema)),
      },
      400: error(
        `VALIDATION_FAILED (no sku, more than ${STOCK_LEVELS_SKUS_MAX}), TENANT_REQUIRED, or REFERENCE_NOT_FOUND: Item SKU <sku> not found | Warehouse code <code> not found`,
      ),
    },
  },
} satisfies Record<string, IntegrationRoute>;
