import { Joi } from '@wms/platform';
import type { EventName } from './event-types.js';

/**
 * Every event the service sends: what it means and the joi schema of its `data`. The outbox checks
 * each appended event's data against it outside production (a mismatch is a programming error,
 * refused before commit),
 * and the event catalogue and the OpenAPI document's `webhooks` are generated from it, so what is
 * documented is what is sent.
 */
export interface EventDefinition {
  description: string;
  /**
   * The portal module whose data the event tells about: a user reads the event (subscribes to it, tries
   * filters over it, gives a key that reads the feed) only with read on this module. Identity's reach rules
   * take it from here, so a new event names its module where it is defined.
   */
  module: EventModule;
  data: Joi.ObjectSchema;
}

/**
 * The portal modules events belong to (a subset of identity's admin modules, which checks it): master data
 * (`warehouses`), inbound, orders, inventory, and webhooks for the events about a subscription itself.
 */
export type EventModule = 'warehouses' | 'inbound' | 'orders' | 'inventory' | 'webhooks';

const code = (description: string) => Joi.string().description(description);
const quantity = (description: string) => Joi.number().description(description);
const tenantId = Joi.string()
  .uuid()
  .allow(null)
  .required()
  .description('the tenant the event belongs to (null only for webhook.disabled of a cross-tenant subscription)');
const lotNo = Joi.string().allow(null).required().description('lot number, null when the item has no lots');
const referenceNo = Joi.string().allow(null).required().description("the client's reference, null when none");

/** An object whose every key is present (a value may still be null where allowed). */
function fields(keys: Record<string, Joi.Schema>): Joi.ObjectSchema {
  return Joi.object(Object.fromEntries(Object.entries(keys).map(([name, schema]) => [name, schema.required()])));
}

/** An event's data: its fields plus the tenant. */
function data(keys: Record<string, Joi.Schema>): Joi.ObjectSchema {
  return fields(keys).keys({ tenantId });
}

export const eventCatalogue: Readonly<Record<EventName, EventDefinition>> = {
  'asn.received': {
    description: 'Goods were received against an ASN: a GRN was posted. Lines carry what was expected and received.',
    module: 'inbound',
    data: data({
      asnNo: code('ASN number'),
      grnNo: code('number of the GRN that received the goods'),
      warehouseCode: code('warehouse code'),
      lines: Joi.array().items(
        fields({
          lineNo: Joi.number().integer(),
          sku: code('item SKU'),
          expectedQty: quantity('quantity the ASN line expects'),
          receivedQty: quantity('quantity received on this GRN'),
        }),
      ),
    }),
  },
  'asn.completed': {
    description: 'Every line of an ASN has been received in full.',
    module: 'inbound',
    data: data({ asnNo: code('ASN number'), warehouseCode: code('warehouse code') }),
  },
  'order.allocated': {
    description: 'Stock was reserved for a sales order.',
    module: 'orders',
    data: data({
      orderNo: code('order number'),
      referenceNo,
      warehouseCode: code('warehouse code'),
      lines: Joi.array().items(
        fields({
          lineNo: Joi.number().integer(),
          sku: code('item SKU'),
          qtyOrdered: quantity('quantity ordered'),
          qtyAllocated: quantity('quantity reserved'),
        }),
      ),
    }),
  },
  'order.released': {
    description: 'A sales order was released to the floor: pick tasks were created.',
    module: 'orders',
    data: data({
      orderNo: code('order number'),
      referenceNo,
      warehouseCode: code('warehouse code'),
      pickTasks: Joi.array().items(
        fields({
          id: Joi.string().uuid(),
          sku: code('item SKU'),
          locationCode: code('location to pick from'),
          lotNo,
          qty: quantity('quantity to pick'),
        }),
      ),
    }),
  },
  'order.shipped': {
    description: 'A sales order left the warehouse: what was shipped, line by line and lot by lot, and how.',
    module: 'orders',
    data: data({
      orderNo: code('order number'),
      referenceNo,
      shipmentNo: code('shipment number'),
      trackingNo: Joi.string().allow(null).required().description('carrier tracking number, null when none given'),
      carrier: Joi.string().allow(null).required().description('the carrier given at shipping, null when none'),
      warehouseCode: code('warehouse the goods left'),
      lines: Joi.array()
        .items(
          fields({
            lineNo: Joi.number().integer(),
            sku: code('item SKU'),
            uomCode: code('unit of the quantity'),
            lotNo,
            qty: quantity('quantity shipped of this line from this lot'),
          }),
        )
        .description('one entry per order line and lot shipped, in line then lot order'),
    }),
  },
  'order.cancelled': {
    description: 'A sales order was cancelled; its reservations were released.',
    module: 'orders',
    data: data({
      orderNo: code('order number'),
      referenceNo,
      previousStatus: code('status the order had before'),
    }),
  },
  'stock.adjusted': {
    description: 'Stock on hand of one location, item and lot was changed by hand.',
    module: 'inventory',
    data: data({
      warehouseCode: code('warehouse code'),
      locationCode: code('location code'),
      sku: code('item SKU'),
      lotNo,
      qtyDelta: quantity('change of quantity on hand'),
      qtyOnHand: quantity('quantity on hand after the change'),
      reason: code('reason given'),
    }),
  },
  'cyclecount.variance': {
    description: 'A cycle count found a different quantity than the system had; stock was corrected.',
    module: 'inventory',
    data: data({
      warehouseCode: code('warehouse code'),
      locationCode: code('location code'),
      sku: code('item SKU'),
      lotNo,
      systemQty: quantity('quantity the system had'),
      countedQty: quantity('quantity counted'),
      variance: quantity('countedQty − systemQty'),
    }),
  },
  'return.received': {
    // Receiving returned goods is inbound work: the returns' operations take the inbound module.
    module: 'inbound',
    description:
      'Goods of a customer return (RMA) were received: each line with its disposition (restock and quarantine put stock on hand at locationCode; scrap writes no stock). status is the return’s after the receipt.',
    data: data({
      rmaNo: code('return number of the shop or ERP'),
      orderNo: code('the shipped order the goods came back from'),
      warehouseCode: code('warehouse code'),
      receiptId: Joi.string().uuid().description('the receipt, as the return inquiry lists it'),
      status: Joi.string().valid('partially_received', 'received'),
      lines: Joi.array().items(
        fields({
          sku: code('item SKU'),
          lotNo,
          qty: quantity('quantity received on this receipt'),
          disposition: Joi.string().valid('restock', 'quarantine', 'scrap'),
          locationCode: Joi.string().allow(null).description('where it went on hand; null when scrapped'),
        }),
      ),
    }),
  },
  'return.completed': {
    module: 'inbound',
    description:
      'A customer return is done: received in full (status received), or closed by staff with less received (status closed). Sent once per return.',
    data: data({
      rmaNo: code('return number of the shop or ERP'),
      orderNo: code('the shipped order the goods came back from'),
      warehouseCode: code('warehouse code'),
      status: Joi.string().valid('received', 'closed'),
      lines: Joi.array().items(
        fields({
          lineNo: Joi.number().integer(),
          sku: code('item SKU'),
          lotNo: Joi.string().allow(null).description('lot the return names, null when none'),
          qty: quantity('quantity the return announced'),
          receivedQty: quantity('quantity received over all receipts'),
        }),
      ),
    }),
  },
  'import.completed': {
    description:
      'A file import ended: state completed (its last chunk was written; the counts cover every row of the file), failed (a chunk could not be written; what was written stays) or cancelled (DELETE /jobs/{jobId} or the portal; what was written stays). processed says how far it got; errorsUrl (null when no row failed) lists the rows that failed.',
    // An import's counts and its errors link; imports are mostly master data, whose module is `warehouses`.
    module: 'warehouses',
    data: data({
      importId: code('the import, as GET /jobs/{jobId} names it'),
      entity: code('items, partners, locations, asn or orders'),
      state: Joi.string().valid('completed', 'failed', 'cancelled'),
      total: quantity('rows in the file'),
      processed: quantity('rows processed (every row once completed)'),
      created: quantity('rows that created an entry'),
      updated: quantity('rows that updated an entry'),
      failed: quantity('rows refused; listed by errorsUrl'),
      errorsUrl: Joi.string().allow(null).description('path of the failed rows (NDJSON, or CSV with Accept: text/csv)'),
    }),
  },
  'bulk.completed': {
    description:
      'A bulk call answered 202 (Prefer: respond-async, or its wait ran past BULK_SYNC_TIMEOUT_MS) ended: state completed (status success, or partial when some entries were refused; GET statusUrl for each entry) or failed (nothing was written; send the call again). A bulk call answered 200 or 207 carried its result and sends no event.',
    // Bulk calls are mostly master data, whose module is `warehouses` (as for import.completed).
    module: 'warehouses',
    data: data({
      jobId: code('the bulk job, as the 202 and GET /jobs/{jobId} name it'),
      entity: code('items, partners, locations, asn, orders or returns'),
      state: Joi.string().valid('completed', 'failed'),
      status: Joi.string()
        .valid('success', 'partial')
        .allow(null)
        .description('the bulk result status; null when failed'),
      total: quantity('entries in the call'),
      created: quantity('entries that created a record'),
      updated: quantity('entries that updated a record'),
      failed: quantity('entries refused; listed in the result at statusUrl'),
      statusUrl: Joi.string().description('path of the job: its state and, once completed, the bulk result'),
    }),
  },
  'webhook.test': {
    description: 'Sent by POST /api/v1/webhooks/{id}/test to that subscription only, whatever its event filter.',
    module: 'webhooks',
    data: data({ subscriptionId: Joi.string().uuid(), message: Joi.string() }),
  },
  'webhook.disabled': {
    description:
      'A webhook subscription of the tenant was disabled because its deliveries had failed for ' +
      'WEBHOOK_DISABLE_AFTER_HOURS. Sent to the tenant’s other subscriptions ' +
      'that name this event (it is not part of `*`).',
    // It tells about the subscription itself, which managing subscriptions (module `webhooks`) shows anyway.
    module: 'webhooks',
    data: data({
      subscriptionId: Joi.string().uuid(),
      url: Joi.string().description('the disabled subscription’s URL'),
      reason: Joi.string().description('why it was disabled'),
      disabledAt: Joi.string().isoDate().description('when it was disabled'),
      failingSince: Joi.string().isoDate().allow(null).description('time of the first failure without a success since'),
    }),
  },
};

/** Checks an event's data against its definition; throws on a mismatch (a programming error, not input). */
export function assertEventData(event: EventName, data: Record<string, unknown>): void {
  const definition = eventCatalogue[event];
  if (!definition) throw new Error(`event ${event} has no definition in the event catalogue`);
  const { error } = definition.data.validate(data, { convert: false });
  if (error) throw new Error(`event ${event} data does not match its definition: ${error.message}`);
}
