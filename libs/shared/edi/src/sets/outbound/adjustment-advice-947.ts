import { type AdviceSet, isNegative, segment, x12Magnitude, type Quantity } from './values.js';

/** One adjustment of stock: a `stock.adjusted` or a `cyclecount.variance`. */
export interface AdjustmentAdviceInput {
  /** CCYYMMDD. */
  date: string;
  /** Our number for the adjustment (the event's id without dashes, 30 characters at most). */
  adjustmentNo: string;
  warehouseCode: string;
  adjustments: Array<{
    sku: string;
    uomCode: string;
    lotNo: string | null;
    locationCode: string;
    /** The change of quantity on hand, signed. */
    delta: Quantity;
    /** `AA` physical count (a cycle count's variance), `07` an adjustment by hand. */
    reasonCode: 'AA' | '07';
    /** The reason as given, written as N9*ZZ. */
    reason: string | null;
  }>;
}

/**
 * 947 Warehouse Inventory Adjustment Advice (004010): W15*<date>*<adjustmentNo>; N1*WH; per adjustment
 * W19*<AA|07>*<signed change>*<uom>**SK*<sku> (a decrease is negative), then N9*LT*<lot> when it has one,
 * N9*LU*<location> and N9*ZZ*<reason as given>.
 */
export function adjustmentAdvice947(input: AdjustmentAdviceInput): AdviceSet {
  const segments = [
    segment('W15', input.date, input.adjustmentNo),
    segment('N1', 'WH', input.warehouseCode, '91', input.warehouseCode),
  ];
  for (const adjustment of input.adjustments) {
    const qty = `${isNegative(adjustment.delta) ? '-' : ''}${x12Magnitude(adjustment.delta)}`;
    segments.push(segment('W19', adjustment.reasonCode, qty, adjustment.uomCode, '', 'SK', adjustment.sku));
    if (adjustment.lotNo) segments.push(segment('N9', 'LT', adjustment.lotNo));
    segments.push(segment('N9', 'LU', adjustment.locationCode));
    if (adjustment.reason) segments.push(segment('N9', 'ZZ', adjustment.reason));
  }
  return { code: '947', segments };
}
