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

/** DTM qualifiers read as the expectedDate: 017 estimated delivery, 067 current schedule delivery, 011 shipped. */
const EXPECTED_DATE_QUALIFIERS = ['017', '067', '011'];

/**
 * 856 Ship Notice/Manifest → the body of `POST /asn`: BSN-02 the shipment identification → referenceNo; in
 * the shipment's HL loop, N1*SF/SU N104 → supplierCode and N1*ST/WH N104 → warehouseCode (else the partner's
 * default); DTM (017, 067, 011) → expectedDate, else BSN-03; per item HL (HL03 I) a line: LIN-01 (else the
 * count) → lineNo, sku from LIN-02/03 … by SK, VN, then UP, a LT pair of the LIN (or REF*LT in the loop) →
 * lotNo, SN1-02 → expectedQty, SN1-03 → uomCode.
 */
export const mapShipNotice: SetMapper = (segments, partner) => {
  const fields = new Map<string, FieldSource>();
  const bsn = segments.find((segment) => segment.id === 'BSN');
  if (!bsn) throw new SetUnmappable([missingSegment('BSN', 2, 'the 856 has no BSN (shipment header)')]);
  const header = at(bsn, 2, '396');
  fields.set('referenceNo', header);

  const all = parties(segments);
  const supplier = all.find((party) => (party.code === 'SF' || party.code === 'SU') && party.id);
  const warehouse = all.find((party) => (party.code === 'ST' || party.code === 'WH') && party.id);
  if (supplier) fields.set('supplierCode', at(supplier.n1, 4, '67', 'N1'));
  fields.set('warehouseCode', warehouse ? at(warehouse.n1, 4, '67', 'N1') : header);

  const dated = EXPECTED_DATE_QUALIFIERS.map((qualifier) =>
    segments.find((segment) => segment.id === 'DTM' && el(segment, 1) === qualifier),
  ).find(Boolean);
  const expected = dated ? at(dated, 2, '373', 'HL') : el(bsn, 3) ? at(bsn, 3, '373') : null;
  if (expected) fields.set('expectedDate', expected);

  const lines: Record<string, unknown>[] = [];
  let item: { lin: SetSegment | null; line: Record<string, unknown> | null } = { lin: null, line: null };
  for (const segment of segments) {
    if (segment.id === 'HL') {
      item = { lin: null, line: null };
      if (el(segment, 3) !== 'I') continue;
      const index = lines.length;
      item.line = { lineNo: index + 1, sku: '', uomCode: '', expectedQty: '' };
      lines.push(item.line);
      fields.set(`lines.${index}`, at(segment, 1, '628', 'HL'));
      continue;
    }
    if (!item.line) continue;
    const index = lines.length - 1;
    if (segment.id === 'LIN') {
      item.lin = segment;
      const pairs = Array.from({ length: 15 }, (_value, n) => 2 + n * 2);
      const product = productId(segment, pairs);
      item.line.sku = product?.value ?? '';
      if (el(segment, 1)) {
        item.line.lineNo = quantityOf(el(segment, 1));
        fields.set(`lines.${index}.lineNo`, at(segment, 1, '350', 'HL'));
      }
      fields.set(`lines.${index}.sku`, at(segment, product?.element ?? 3, '234', 'HL'));
      const lot = pairs.find((pair) => el(segment, pair) === 'LT' && el(segment, pair + 1));
      if (lot) {
        item.line.lotNo = el(segment, lot + 1);
        fields.set(`lines.${index}.lotNo`, at(segment, lot + 1, '234', 'HL'));
      }
    } else if (segment.id === 'SN1') {
      item.line.expectedQty = quantityOf(el(segment, 2));
      item.line.uomCode = el(segment, 3);
      fields.set(`lines.${index}.expectedQty`, at(segment, 2, '382', 'HL'));
      fields.set(`lines.${index}.uomCode`, at(segment, 3, '355', 'HL'));
    } else if (segment.id === 'REF' && el(segment, 1) === 'LT' && !item.line.lotNo) {
      item.line.lotNo = el(segment, 2);
      fields.set(`lines.${index}.lotNo`, at(segment, 2, '127', 'HL'));
    }
  }
  if (lines.length === 0) fields.set('lines', header);

  const entry: MappedSet['entry'] = {
    warehouseCode: warehouse?.id ?? partner.warehouseCode ?? '',
    supplierCode: supplier?.id ?? '',
    referenceNo: el(bsn, 2),
    lines,
  };
  if (expected) entry.expectedDate = isoDate(expected.value ?? '');
  return { entity: 'asn', entry, fields, header };
};
