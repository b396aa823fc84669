import { stringField, type IngestEntityDeclaration, type IngestHandler } from '../integration/index.js';
import type { OrdersService, WriteContext } from '@wms/warehouse';
import { orderRefSchema, orderDocumentSchema, orderSchema, type OrderInput } from '@wms/warehouse';

/** Bulk orders take at most 100 entries per request. */
export const ORDER_BULK_LIMIT = 100;

/**
 * Sales orders as an entity of the integration API: POST /orders (201 with the created order) and
 * POST /orders/bulk with `{ orders: [...] }`. Orders are created, never updated:
 * a repeated referenceNo is an entry error 409 DUPLICATE_REFERENCE naming the existing order.
 */
export const ORDER_ENTITY = {
  entity: 'orders',
  title: 'Order',
  maxEntries: ORDER_BULK_LIMIT,
  batchSize: ORDER_BULK_LIMIT,
  entrySchema: orderSchema,
  refSchema: orderRefSchema,
  documentSchema: orderDocumentSchema,
  singleStatus: 201,
  mergeDuplicates: false,
  singleStatement: false,
  keyOf: (entry) => stringField(entry, 'referenceNo'),
} satisfies IngestEntityDeclaration<OrderInput, 'orders'>;

export function orderIngestHandler(service: OrdersService): IngestHandler<OrderInput, 'orders'> {
  return {
    ...ORDER_ENTITY,
    writeBatch: (context: WriteContext, entries: OrderInput[]) => service.createOrders(context, entries),
  };
}
