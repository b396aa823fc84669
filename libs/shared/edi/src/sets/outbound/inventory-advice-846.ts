import { type AdviceSet, segment, x12Decimal, type Quantity } from './values.js';

/** One warehouse's stock, item by item: what an 846 of that warehouse lists. */
export interface WarehouseStock {
  warehouseCode: string;
  items: Array<{ sku: string; uomCode: string; onHand: Quantity; available: Quantity }>;
}

/**
 * 846 Inventory Inquiry/Advice (004010), one set per warehouse: BIA*00*DD*<reference>*<date>*<time>;
 * N1*WH*<code>*91*<code>; per item LIN**SK*<sku>, QTY*17*<on hand>*<uom> (quantity on hand) and
 * QTY*33*<available>*<uom> (quantity available: on hand less what is allocated).
 */
export function inventoryAdvice846(
  stock: WarehouseStock,
  reference: string,
  at: { date: string; time: string },
): AdviceSet {
  const segments = [
    segment('BIA', '00', 'DD', reference, at.date, at.time),
    // A tenant without stock and a partner without a default warehouse: an advice of nothing, for no warehouse.
    ...(stock.warehouseCode ? [segment('N1', 'WH', stock.warehouseCode, '91', stock.warehouseCode)] : []),
  ];
  for (const item of stock.items) {
    segments.push(segment('LIN', '', 'SK', item.sku));
    segments.push(segment('QTY', '17', x12Decimal(item.onHand), item.uomCode));
    segments.push(segment('QTY', '33', x12Decimal(item.available), item.uomCode));
  }
  return { code: '846', segments };
}
