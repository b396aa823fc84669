import type { EventName } from './event-types.js';

/**
 * The document an event is about, as the key of its `sequence` counter: the order, the ASN, the stock position
 * (warehouse, location, SKU, lot), the import, the bulk job or, for the operational events, the subscription. Parts are JSON-encoded, so
 * no code containing a separator can make two documents share a key.
 */
export function documentKeyOf(event: EventName, data: Record<string, unknown>): string {
  const tenantId = data.tenantId ?? null;
  switch (event) {
    case 'asn.received':
    case 'asn.completed':
      return `asn:${JSON.stringify([tenantId, data.asnNo])}`;
    case 'order.allocated':
    case 'order.released':
    case 'order.shipped':
    case 'order.cancelled':
      return `order:${JSON.stringify([tenantId, data.orderNo])}`;
    case 'stock.adjusted':
    case 'cyclecount.variance':
      return `stock:${JSON.stringify([tenantId, data.warehouseCode, data.locationCode, data.sku, data.lotNo ?? null])}`;
    case 'return.received':
    case 'return.completed':
      return `return:${JSON.stringify([tenantId, data.rmaNo])}`;
    case 'import.completed':
      return `import:${JSON.stringify([tenantId, data.importId])}`;
    case 'bulk.completed':
      return `bulk:${JSON.stringify([tenantId, data.jobId])}`;
    case 'webhook.test':
    case 'webhook.disabled':
      return `webhook:${JSON.stringify([data.subscriptionId])}`;
  }
}
