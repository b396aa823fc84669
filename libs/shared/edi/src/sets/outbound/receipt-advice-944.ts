import { type AdviceSet, segment, x12Decimal, x12Sum, type Quantity } from './values.js';

/** What a 944 says: one receipt (a GRN) against an ASN, or the final one once the ASN is complete. */
export interface ReceiptAdviceInput {
  /** `P` per receipt (`asn.received`), `F` the final one (`asn.completed`: every line and all it received). */
  reporting: 'P' | 'F';
  /** CCYYMMDD. */
  date: string;
  /** Our receipt's number: the GRN's, or the ASN's for the final advice. */
  receiptNo: string;
  /** The depositor's number for the shipment: the ASN number it sent (943 W06-02 / 856 BSN-02). */
  asnNo: string;
  warehouseCode: string;
  lines: Array<{ lineNo: number; sku: string; uomCode: string; lotNo: string | null; qty: Quantity }>;
}

/**
 * 944 Warehouse Stock Transfer Receipt Advice (004010): W17*<P|F>*<date>*<receiptNo>*<asnNo>; N1*WH; per line
 * (and lot) W07*<qty>*<uom>**SK*<sku>**<lot> (W07-07 is the lot number); W14*<total units>.
 */
export function receiptAdvice944(input: ReceiptAdviceInput): AdviceSet {
  const segments = [
    segment('W17', input.reporting, input.date, input.receiptNo, input.asnNo),
    segment('N1', 'WH', input.warehouseCode, '91', input.warehouseCode),
  ];
  for (const line of input.lines)
    segments.push(segment('W07', x12Decimal(line.qty), line.uomCode, '', 'SK', line.sku, '', line.lotNo));
  segments.push(segment('W14', x12Sum(input.lines.map((line) => line.qty))));
  return { code: '944', segments };
}
