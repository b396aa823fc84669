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
  type SetMapper,
} from './set-mapping.js';

/** Party codes read as the ASN's supplier, first found first: SF ship from, SU supplier, DE depositor. */
const SUPPLIER_CODES = ['SF', 'SU', 'DE'];
/** G62 qualifiers read as the expectedDate: 17 estimated delivery, 02 deliver by, 10 requested ship. */
const EXPECTED_DATE_QUALIFIERS = ['17', '02', '10'];

/**
 * 943 Warehouse Stock Transfer Shipment Advice → the body of `POST /asn`: W06-04 the shipment
 * identification → referenceNo (else W06-02, the depositor order number); N1*SF/SU/DE N104 → supplierCode;
 * N1*WH or N1*ST N104 → warehouseCode (else the partner's default); G62 (17, 02, 10) → expectedDate, else
 * W06-03; per W04 a line (numbered in order): W04-01 → expectedQty, W04-02 → uomCode, sku from W04-04/05 or
 * W04-06/07 by SK, VN, then UP (W04-03); an N9*LT after the W04 → lotNo.
 */
export const mapStockTransferShipment: SetMapper = (segments, partner) => {
  const fields = new Map<string, FieldSource>();
  const w06 = segments.find((segment) => segment.id === 'W06');
  if (!w06) throw new SetUnmappable([missingSegment('W06', 2, 'the 943 has no W06 (shipment header)')]);
  const referenceElement = el(w06, 4) ? 4 : 2;
  const header = at(w06, referenceElement, referenceElement === 4 ? '145' : '324');
  fields.set('referenceNo', header);

  const all = parties(segments);
  const supplier = SUPPLIER_CODES.map((code) => all.find((party) => party.code === code && party.id)).find(Boolean);
  const warehouse = all.find((party) => (party.code === 'WH' || party.code === 'ST') && party.id);
  if (supplier) fields.set('supplierCode', at(supplier.n1, 4, '67', 'N1'));
  fields.set('warehouseCode', warehouse ? at(warehouse.n1, 4, '67', 'N1') : header);

  const dated = EXPECTED_DATE_QUALIFIERS.map((qualifier) =>
    segments.find((segment) => segment.id === 'G62' && el(segment, 1) === qualifier),
  ).find(Boolean);
  const expected = dated ? at(dated, 2, '373') : el(w06, 3) ? at(w06, 3, '373') : null;
  if (expected) fields.set('expectedDate', expected);

  const lines: Record<string, unknown>[] = [];
  for (const segment of segments) {
    if (segment.id === 'N9' && el(segment, 1) === 'LT' && lines.length > 0) {
      const index = lines.length - 1;
      lines[index]!.lotNo = el(segment, 2);
      fields.set(`lines.${index}.lotNo`, at(segment, 2, '127', 'W04'));
      continue;
    }
    if (segment.id !== 'W04') continue;
    const index = lines.length;
    const item = productId(segment, [4, 6], { element: 3, qualifier: 'UP' });
    lines.push({
      lineNo: index + 1,
      sku: item?.value ?? '',
      uomCode: el(segment, 2),
      expectedQty: quantityOf(el(segment, 1)),
    });
    fields.set(`lines.${index}`, at(segment, 1, '382', 'W04'));
    fields.set(`lines.${index}.expectedQty`, at(segment, 1, '382', 'W04'));
    fields.set(`lines.${index}.uomCode`, at(segment, 2, '355', 'W04'));
    fields.set(`lines.${index}.sku`, at(segment, item?.element ?? 5, '234', 'W04'));
  }
  if (lines.length === 0) fields.set('lines', header);

  const entry: MappedSet['entry'] = {
    warehouseCode: warehouse?.id ?? partner.warehouseCode ?? '',
    supplierCode: supplier?.id ?? '',
    referenceNo: el(w06, referenceElement),
    lines,
  };
  if (expected) entry.expectedDate = isoDate(expected.value ?? '');
  return { entity: 'asn', entry, fields, header };
};
