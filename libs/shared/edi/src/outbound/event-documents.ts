import type { TradingPartner } from '../partners/index.js';
import {
  adjustmentAdvice947,
  receiptAdvice944,
  shippingAdvice945,
  type Quantity,
  type ReceiptAdviceInput,
} from '../sets/index.js';
import { x12Dates } from '../x12/index.js';
import type { DocumentLookups } from './document-lookups.js';
import type { OutboundRepository } from './outbound.repository.js';
import type { OutboundDocument } from './outbound-writer.js';

/** An event as its delivery's body carries it (the 2026-12-01 shape: quantities are decimal strings). */
export interface DeliveredEvent {
  id: string;
  event: string;
  timestamp: string;
  data: Record<string, unknown>;
}

/** The events each outbound advice follows (the partner's subscription is made of them). */
export const ADVICE_EVENTS: Record<'944' | '945' | '947', string[]> = {
  '944': ['asn.received', 'asn.completed'],
  '945': ['order.shipped'],
  '947': ['stock.adjusted', 'cyclecount.variance'],
};

/** The events a partner's subscription follows, from its outbound sets. */
export function adviceEventsOf(partner: Pick<TradingPartner, 'outboundSets'>): string[] {
  return (['944', '945', '947'] as const)
    .filter((set) => partner.outboundSets.includes(set))
    .flatMap((set) => ADVICE_EVENTS[set]);
}

/** What an event comes to for a partner: its document, or why it is none of the partner's. */
export type EventDocument = { document: OutboundDocument } | { notFor: string };

type Line = { lineNo: number; sku: string; uomCode: string; lotNo: string | null; qty: Quantity };
type AsnDocument = {
  lines: Array<{ lineNo: number; sku: string; uomCode: string; lotNo: string | null; receivedQty: number }>;
  grns: Array<{
    grnNo: string;
    lines: Array<{ asnLineNo: number | null; sku: string; qty: number; lotNo: string | null }>;
  }>;
};

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/**
 * Turns one delivered event into the partner's advice: a 945 for an order and a 944 for an ASN the partner
 * sent us over EDI (an inbound set of its names the document), a 947 for any stock change of its tenant.
 */
export class EventDocuments {
  constructor(
    private readonly outbound: Pick<OutboundRepository, 'sentByPartner'>,
    private readonly lookups: DocumentLookups,
  ) {}

  async documentOf(partner: TradingPartner, event: DeliveredEvent): Promise<EventDocument> {
    if (event.data.tenantId !== partner.tenantId) return { notFor: 'event of another tenant' };
    const at = x12Dates(new Date(event.timestamp)).ccyymmdd;
    switch (event.event) {
      case 'order.shipped':
        return this.shipped(partner, event.data, at);
      case 'asn.received':
      case 'asn.completed':
        return this.received(partner, event, at);
      case 'stock.adjusted':
      case 'cyclecount.variance':
        return this.adjusted(partner, event, at);
      default:
        return { notFor: `${event.event} is no EDI advice` };
    }
  }

  private async shipped(partner: TradingPartner, data: Record<string, unknown>, at: string): Promise<EventDocument> {
    if (!partner.outboundSets.includes('945')) return { notFor: 'the partner takes no 945' };
    const referenceNo = text(data.referenceNo);
    if (!referenceNo || !(await this.outbound.sentByPartner(partner.id, 'order', referenceNo)))
      return { notFor: `order ${String(data.orderNo)} did not come from this partner` };
    const order = (await this.lookups.orders.inquire(partner.tenantId, String(data.orderNo))) as {
      shipTo: { name?: string; address?: string } | null;
    };
    const set = shippingAdvice945({
      orderNo: String(data.orderNo),
      referenceNo,
      shipmentNo: String(data.shipmentNo),
      date: at,
      carrier: text(data.carrier),
      trackingNo: text(data.trackingNo),
      warehouseCode: String(data.warehouseCode),
      shipTo: order.shipTo,
      shipFrom: partner.shipFrom,
      lines: data.lines as Line[],
    });
    return { document: { set, documentKind: 'order', documentRef: referenceNo } };
  }

  private async received(partner: TradingPartner, event: DeliveredEvent, at: string): Promise<EventDocument> {
    if (!partner.outboundSets.includes('944')) return { notFor: 'the partner takes no 944' };
    const asnNo = String(event.data.asnNo);
    if (!(await this.outbound.sentByPartner(partner.id, 'asn', asnNo)))
      return { notFor: `ASN ${asnNo} did not come from this partner` };
    const asn = (await this.lookups.asns.inquire(partner.tenantId, asnNo)) as unknown as AsnDocument;
    const input: ReceiptAdviceInput =
      event.event === 'asn.completed'
        ? {
            reporting: 'F',
            date: at,
            receiptNo: asnNo,
            asnNo,
            warehouseCode: String(event.data.warehouseCode),
            lines: asn.lines.map((line) => ({
              lineNo: line.lineNo,
              sku: line.sku,
              uomCode: line.uomCode,
              lotNo: line.lotNo,
              qty: line.receivedQty,
            })),
          }
        : {
            reporting: 'P',
            date: at,
            receiptNo: String(event.data.grnNo),
            asnNo,
            warehouseCode: String(event.data.warehouseCode),
            lines: receiptLines(event.data, asn),
          };
    return { document: { set: receiptAdvice944(input), documentKind: 'asn', documentRef: asnNo } };
  }

  private async adjusted(partner: TradingPartner, event: DeliveredEvent, at: string): Promise<EventDocument> {
    if (!partner.outboundSets.includes('947')) return { notFor: 'the partner takes no 947' };
    const data = event.data;
    const sku = String(data.sku);
    const item = await this.lookups.catalogue.item(partner.tenantId, sku);
    const counted = event.event === 'cyclecount.variance';
    const set = adjustmentAdvice947({
      date: at,
      adjustmentNo: event.id.replaceAll('-', '').slice(0, 30),
      warehouseCode: String(data.warehouseCode),
      adjustments: [
        {
          sku,
          uomCode: item.baseUomCode,
          lotNo: text(data.lotNo),
          locationCode: String(data.locationCode),
          delta: (counted ? data.variance : data.qtyDelta) as Quantity,
          reasonCode: counted ? 'AA' : '07',
          reason: counted ? 'cycle count' : text(data.reason),
        },
      ],
    });
    const ref = [data.warehouseCode, data.locationCode, sku, data.lotNo ?? ''].join('/');
    return { document: { set, documentKind: 'stock', documentRef: ref } };
  }
}

/**
 * The W07 lines of one receipt: the GRN's own lines as the ASN inquiry lists them (what this receipt took in,
 * lot by lot; the event's receivedQty is the line's total so far), each with its ASN line's sku and unit.
 */
function receiptLines(data: Record<string, unknown>, asn: AsnDocument): Line[] {
  const grn = asn.grns.find((candidate) => candidate.grnNo === data.grnNo);
  if (!grn) throw new Error(`GRN ${String(data.grnNo)} is not among ASN ${String(data.asnNo)}'s receipts`);
  return grn.lines.map((grnLine) => {
    const asnLine = asn.lines.find((candidate) => candidate.lineNo === grnLine.asnLineNo);
    return {
      lineNo: grnLine.asnLineNo ?? 0,
      sku: asnLine?.sku ?? grnLine.sku,
      uomCode: asnLine?.uomCode ?? '',
      lotNo: grnLine.lotNo,
      qty: grnLine.qty,
    };
  });
}
