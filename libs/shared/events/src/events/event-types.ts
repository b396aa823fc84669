/**
 * The business events with their `data`, plus `webhook.test` (sent by the test endpoint, never fanned
 * out) and `webhook.disabled` (a subscription of the tenant was disabled). The runtime definitions of
 * each `data` are in event-catalogue.ts. Every event's data carries `tenantId`; `append` adds
 * it from the event's tenant, so the two can never disagree.
 */
export interface EventDataMap {
  'asn.received': {
    asnNo: string;
    grnNo: string;
    warehouseCode: string;
    lines: Array<{ lineNo: number; sku: string; expectedQty: number; receivedQty: number }>;
  };
  'asn.completed': { asnNo: string; warehouseCode: string };
  'order.allocated': {
    orderNo: string;
    referenceNo: string | null;
    warehouseCode: string;
    lines: Array<{ lineNo: number; sku: string; qtyOrdered: number; qtyAllocated: number }>;
  };
  'order.released': {
    orderNo: string;
    referenceNo: string | null;
    warehouseCode: string;
    pickTasks: Array<{ id: string; sku: string; locationCode: string; lotNo: string | null; qty: number }>;
  };
  'order.shipped': {
    orderNo: string;
    referenceNo: string | null;
    shipmentNo: string;
    trackingNo: string | null;
    carrier: string | null;
    warehouseCode: string;
    lines: Array<{ lineNo: number; sku: string; uomCode: string; lotNo: string | null; qty: number }>;
  };
  'order.cancelled': { orderNo: string; referenceNo: string | null; previousStatus: string };
  'stock.adjusted': {
    warehouseCode: string;
    locationCode: string;
    sku: string;
    lotNo: string | null;
    qtyDelta: number;
    qtyOnHand: number;
    reason: string;
  };
  'cyclecount.variance': {
    warehouseCode: string;
    locationCode: string;
    sku: string;
    lotNo: string | null;
    systemQty: number;
    countedQty: number;
    variance: number;
  };
  'return.received': {
    rmaNo: string;
    orderNo: string;
    warehouseCode: string;
    receiptId: string;
    status: 'partially_received' | 'received';
    lines: Array<{
      sku: string;
      lotNo: string | null;
      qty: number;
      disposition: 'restock' | 'quarantine' | 'scrap';
      locationCode: string | null;
    }>;
  };
  'return.completed': {
    rmaNo: string;
    orderNo: string;
    warehouseCode: string;
    status: 'received' | 'closed';
    lines: Array<{ lineNo: number; sku: string; lotNo: string | null; qty: number; receivedQty: number }>;
  };
  'import.completed': {
    importId: string;
    entity: string;
    state: 'completed' | 'failed' | 'cancelled';
    total: number;
    processed: number;
    created: number;
    updated: number;
    failed: number;
    errorsUrl: string | null;
  };
  'bulk.completed': {
    jobId: string;
    entity: string;
    state: 'completed' | 'failed';
    status: 'success' | 'partial' | null;
    total: number;
    created: number;
    updated: number;
    failed: number;
    statusUrl: string;
  };
  'webhook.test': { subscriptionId: string; message: string };
  'webhook.disabled': {
    subscriptionId: string;
    url: string;
    reason: string;
    disabledAt: string;
    failingSince: string | null;
  };
}

export type EventName = keyof EventDataMap;
export type BusinessEventName = Exclude<EventName, 'webhook.test' | 'webhook.disabled'>;

/** What subscribers may name in `events`; `*` is every business event. */
export const businessEventNames = [
  'asn.received',
  'asn.completed',
  'order.allocated',
  'order.released',
  'order.shipped',
  'order.cancelled',
  'stock.adjusted',
  'cyclecount.variance',
  'return.received',
  'return.completed',
  'import.completed',
  'bulk.completed',
] as const satisfies readonly BusinessEventName[];

export const WEBHOOK_DISABLED_EVENT = 'webhook.disabled' satisfies EventName;

/** What a subscription may name in `events`: the business events, `*` (all of them) and `webhook.disabled`. */
export const subscribableEventNames = [...businessEventNames, WEBHOOK_DISABLED_EVENT] as const;

/** The stored and delivered data of an event: the input data plus its tenant. */
export type EventData<E extends EventName> = EventDataMap[E] & { tenantId: string | null };

export type AppendEventInput = {
  [E in BusinessEventName]: { tenantId: string; event: E; data: EventDataMap[E] };
}[BusinessEventName];

export interface AppendedEvent {
  id: string;
  event: EventName;
  tenantId: string | null;
  occurredAt: Date;
  /** Grows with each event of the same document (order, ASN, stock position); see documentKeyOf. */
  sequence: number;
}

/**
 * An event as the feed and the webhook body show it; `id` is the event's own, the same in the feed and every
 * delivery.
 */
export interface PublishedEvent {
  id: string;
  event: EventName;
  timestamp: string;
  /** Grows with each event of the same document: a receiver drops an event older than one it applied. Null for events written before sequences existed. */
  sequence: number | null;
  data: Record<string, unknown>;
}

export interface EventPage {
  events: PublishedEvent[];
  /** Pass as `after` to get the next page; the cursor given (or null) when nothing new has arrived. */
  nextCursor: string | null;
}
