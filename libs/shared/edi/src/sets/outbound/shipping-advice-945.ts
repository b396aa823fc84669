import { type AdviceSet, partySegments, segment, x12Decimal, x12Sum, type Quantity } from './values.js';

/** What a 945 says: the `order.shipped` event's data and what the order adds (its ship-to). */
export interface ShippingAdviceInput {
  orderNo: string;
  /** The depositor's order number: the 940's W05-02, our order's referenceNo. */
  referenceNo: string;
  shipmentNo: string;
  /** CCYYMMDD. */
  date: string;
  carrier: string | null;
  trackingNo: string | null;
  warehouseCode: string;
  shipTo: { name?: string; address?: string } | null;
  shipFrom: Record<string, string> | null;
  lines: Array<{ lineNo: number; sku: string; uomCode: string; lotNo: string | null; qty: Quantity }>;
}

/**
 * 945 Warehouse Shipping Advice (004010): W06*F*<referenceNo>*<ship date>*<orderNo>*<shipmentNo>; N1*ST (N3),
 * N1*SF (N3/N4, the partner's ship-from) and N1*WH; N9*2I*<tracking number>; W27*M*<carrier>*<carrier>; per
 * order line and lot LX*<n> and W12*SH**<qty shipped>**<uom>**SK*<sku>, then N9*LT*<lot> when it has one;
 * W03*<total units shipped>.
 */
export function shippingAdvice945(input: ShippingAdviceInput): AdviceSet {
  const segments = [
    segment('W06', 'F', input.referenceNo, input.date, input.orderNo, input.shipmentNo),
    ...partySegments('ST', input.shipTo ? { name: input.shipTo.name, address: input.shipTo.address } : null),
    ...partySegments('SF', input.shipFrom),
    segment('N1', 'WH', input.warehouseCode, '91', input.warehouseCode),
  ];
  if (input.trackingNo) segments.push(segment('N9', '2I', input.trackingNo));
  if (input.carrier) segments.push(segment('W27', 'M', input.carrier, input.carrier));
  input.lines.forEach((line, index) => {
    segments.push(segment('LX', index + 1));
    segments.push(segment('W12', 'SH', '', x12Decimal(line.qty), '', line.uomCode, '', 'SK', line.sku));
    if (line.lotNo) segments.push(segment('N9', 'LT', line.lotNo));
  });
  segments.push(segment('W03', x12Sum(input.lines.map((line) => line.qty))));
  return { code: '945', segments };
}
