import {
  SetUnmappable,
  at,
  el,
  isoDate,
  missingSegment,
  parties,
  productId,
  quantityOf,
  type FieldSource,
  type MappedSet,
  type SetSegment,
  type SetMapper,
} from './set-mapping.js';

/** G62 date qualifiers read as the order's requiredDate, first found first: 10 requested ship, 38 ship no later, 02 deliver by. */
const REQUIRED_DATE_QUALIFIERS = ['10', '38', '02'];

/**
 * 940 Warehouse Shipping Order → the body of `POST /orders` (docs/edi.md, "What we read"):
 * W05-02 the depositor's order number → referenceNo; N1*ST (with N3/N4) → shipTo; N1*BY, else N1*BT, else
 * N1*ST: its N104 → customerCode; N1*WH N104 → warehouseCode (else the partner's default warehouse);
 * G62 (10, 38, 02) → requiredDate; per LX loop (or each W01 without one) a line: LX01 (else the count) →
 * lineNo, W01-01 → qtyOrdered, W01-02 → uomCode, sku from W01-04/05 or W01-06/07 by SK, VN, then UP (W01-03
 * the U.P.C.). W66 and NTE are read for the record only: the order has no carrier or note field.
 */
export const mapWarehouseShippingOrder: SetMapper = (segments, partner) => {
  const fields = new Map<string, FieldSource>();
  const w05 = segments.find((segment) => segment.id === 'W05');
  if (!w05) throw new SetUnmappable([missingSegment('W05', 2, 'the 940 has no W05 (order header)')]);
  const header = at(w05, 2, '324');
  fields.set('referenceNo', header);

  const all = parties(segments);
  const shipTo = all.find((party) => party.code === 'ST');
  const customer = all.find((party) => party.code === 'BY') ?? all.find((party) => party.code === 'BT') ?? shipTo;
  const warehouse = all.find((party) => party.code === 'WH' && party.id);
  if (customer) fields.set('customerCode', at(customer.n1, 4, '67', 'N1'));
  if (warehouse) fields.set('warehouseCode', at(warehouse.n1, 4, '67', 'N1'));
  else fields.set('warehouseCode', header);
  if (shipTo) {
    fields.set('shipTo', at(shipTo.n1, 2, '93', 'N1'));
    fields.set('shipTo.name', at(shipTo.n1, 2, '93', 'N1'));
  }

  const dated = REQUIRED_DATE_QUALIFIERS.map((qualifier) =>
    segments.find((segment) => segment.id === 'G62' && el(segment, 1) === qualifier),
  ).find(Boolean);
  if (dated) fields.set('requiredDate', at(dated, 2, '373'));

  const lines: Record<string, unknown>[] = [];
  let lx: SetSegment | null = null;
  for (const segment of segments) {
    if (segment.id === 'LX') lx = segment;
    if (segment.id !== 'W01') continue;
    const index = lines.length;
    const lineNo = lx && el(lx, 1) ? quantityOf(el(lx, 1)) : index + 1;
    const item = productId(segment, [4, 6, 16], { element: 3, qualifier: 'UP' });
    lines.push({ lineNo, sku: item?.value ?? '', uomCode: el(segment, 2), qtyOrdered: quantityOf(el(segment, 1)) });
    fields.set(`lines.${index}`, at(segment, 1, '330', 'LX'));
    if (lx) fields.set(`lines.${index}.lineNo`, at(lx, 1, '554', 'LX'));
    fields.set(`lines.${index}.qtyOrdered`, at(segment, 1, '330', 'LX'));
    fields.set(`lines.${index}.uomCode`, at(segment, 2, '355', 'LX'));
    fields.set(`lines.${index}.sku`, at(segment, item?.element ?? 5, '234', 'LX'));
    lx = null;
  }
  if (lines.length === 0) fields.set('lines', header);

  const entry: MappedSet['entry'] = {
    warehouseCode: warehouse?.id ?? partner.warehouseCode ?? '',
    customerCode: customer?.id ?? '',
    referenceNo: el(w05, 2),
    lines,
  };
  if (dated) entry.requiredDate = isoDate(el(dated, 2));
  if (shipTo) entry.shipTo = { name: shipTo.name, address: shipTo.address.join('\n') };
  return { entity: 'orders', entry, fields, header };
};
