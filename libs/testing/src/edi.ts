import { randomBytes } from 'node:crypto';
import { QueryTypes } from 'sequelize';
import type { TestContext } from './test-context.js';

/**
 * X12 texts for the EDI specs (940, 943, 856, 997 with the control numbers a spec gives), written the way a
 * trading partner's translator writes them, with switches that break one envelope rule at a time; and a
 * trading partner arranged straight in the database.
 */

export interface X12Party {
  qualifier: string;
  id: string;
  groupCode: string;
}

export interface X12SetSpec {
  code: string;
  control: string;
  /** The segments between ST and SE, each as [ID, element 1, element 2, …]. */
  segments: string[][];
  /** Breaks: an SE01 or SE02 other than the right one, or no SE at all. */
  seCount?: string;
  seControl?: string;
  noTrailer?: boolean;
}

export interface X12GroupSpec {
  functionalId: string;
  control: string;
  sets: X12SetSpec[];
  geCount?: string;
  geControl?: string;
  /** GS02/GS03 other than the parties' group codes. */
  senderCode?: string;
  receiverCode?: string;
}

export interface X12InterchangeSpec {
  sender: X12Party;
  receiver: X12Party;
  control: string;
  groups: X12GroupSpec[];
  separators?: { element: string; component: string; segment: string };
  /** A line break after each segment terminator, as many translators write. */
  newlines?: boolean;
  ieaControl?: string;
  ieaCount?: string;
  noIea?: boolean;
}

const pad = (value: string, width: number) => value.padEnd(width, ' ').slice(0, width);

/** One interchange as X12 text (ISA fixed width; SE01, GE01, IEA01 counted unless a spec breaks them). */
export function x12Interchange(spec: X12InterchangeSpec): string {
  const { element, component, segment } = spec.separators ?? { element: '*', component: '>', segment: '~' };
  const end = segment + (spec.newlines ? '\n' : '');
  const line = (parts: string[]) => parts.join(element) + end;
  const control = spec.control.padStart(9, '0');
  let text = [
    'ISA',
    '00',
    pad('', 10),
    '00',
    pad('', 10),
    pad(spec.sender.qualifier, 2),
    pad(spec.sender.id, 15),
    pad(spec.receiver.qualifier, 2),
    pad(spec.receiver.id, 15),
    '261201',
    '1200',
    'U',
    '00401',
    control,
    '0',
    'P',
    component,
  ].join(element);
  text += end;
  for (const group of spec.groups) {
    text += line([
      'GS',
      group.functionalId,
      group.senderCode ?? spec.sender.groupCode,
      group.receiverCode ?? spec.receiver.groupCode,
      '20261201',
      '1200',
      group.control,
      'X',
      '004010',
    ]);
    for (const set of group.sets) {
      text += line(['ST', set.code, set.control]);
      for (const body of set.segments) text += line(body);
      if (!set.noTrailer)
        text += line(['SE', set.seCount ?? String(set.segments.length + 2), set.seControl ?? set.control]);
    }
    text += line(['GE', group.geCount ?? String(group.sets.length), group.geControl ?? group.control]);
  }
  if (!spec.noIea) text += line(['IEA', spec.ieaCount ?? String(spec.groups.length), spec.ieaControl ?? control]);
  return text;
}

export interface OrderLineSpec {
  sku: string;
  qty: number;
  uom?: string;
  /** The product ID qualifier of W01-04: SK (default), VN or UP. */
  qualifier?: string;
}

/** The body of a 940 for one order: W05, N1*ST (N3/N4), N1*BY, optional N1*WH, G62*10, W66, LX/W01 lines, NTE. */
export function order940(order: {
  referenceNo: string;
  customerCode: string;
  warehouseCode?: string;
  requiredDate?: string;
  lines: OrderLineSpec[];
}): string[][] {
  const segments: string[][] = [
    ['W05', 'N', order.referenceNo, `PO-${order.referenceNo}`],
    ['N1', 'ST', 'Ship To Store 12', '92', order.customerCode],
    ['N3', '1 Main Street'],
    ['N4', 'Springfield', 'IL', '62701', 'US'],
    ['N1', 'BY', 'Buyer', '92', order.customerCode],
  ];
  if (order.warehouseCode) segments.push(['N1', 'WH', 'Warehouse', '92', order.warehouseCode]);
  if (order.requiredDate) segments.push(['G62', '10', order.requiredDate.replaceAll('-', '')]);
  segments.push(['W66', 'PP', 'M', '', '', 'UPS GROUND', '', '', '', '', 'UPSN']);
  order.lines.forEach((line, index) => {
    segments.push(['LX', String(index + 1)]);
    segments.push(['W01', String(line.qty), line.uom ?? 'EA', '', line.qualifier ?? 'SK', line.sku]);
  });
  segments.push(['NTE', 'WHI', 'Leave at dock 3']);
  segments.push(['W76', String(order.lines.reduce((sum, line) => sum + line.qty, 0))]);
  return segments;
}

/** The body of a 943 for one ASN: W06, N1*SF, N1*WH, G62*17, W04 lines (with N9*LT when a lot is given). */
export function asn943(asn: {
  referenceNo: string;
  supplierCode: string;
  warehouseCode: string;
  expectedDate?: string;
  lines: Array<{ sku: string; qty: number; uom?: string; lotNo?: string }>;
}): string[][] {
  const segments: string[][] = [
    ['W06', 'N', `DO-${asn.referenceNo}`, '20261201', asn.referenceNo],
    ['N1', 'SF', 'Supplier', '92', asn.supplierCode],
    ['N1', 'WH', 'Warehouse', '92', asn.warehouseCode],
  ];
  if (asn.expectedDate) segments.push(['G62', '17', asn.expectedDate.replaceAll('-', '')]);
  for (const line of asn.lines) {
    segments.push(['W04', String(line.qty), line.uom ?? 'EA', '', 'SK', line.sku]);
    if (line.lotNo) segments.push(['N9', 'LT', line.lotNo]);
  }
  segments.push(['W03', String(asn.lines.reduce((sum, line) => sum + line.qty, 0))]);
  return segments;
}

/** The body of an 856 for one ASN: BSN, the shipment HL with DTM*017 and N1*SF/ST, one item HL per line (LIN, SN1). */
export function asn856(asn: {
  referenceNo: string;
  supplierCode: string;
  warehouseCode: string;
  expectedDate?: string;
  lines: Array<{ sku: string; qty: number; uom?: string; lotNo?: string }>;
}): string[][] {
  const segments: string[][] = [
    ['BSN', '00', asn.referenceNo, '20261201', '1200'],
    ['HL', '1', '', 'S'],
  ];
  if (asn.expectedDate) segments.push(['DTM', '017', asn.expectedDate.replaceAll('-', '')]);
  segments.push(['N1', 'SF', 'Supplier', '92', asn.supplierCode]);
  segments.push(['N1', 'ST', 'Warehouse', '92', asn.warehouseCode]);
  segments.push(['HL', '2', '1', 'O']);
  segments.push(['PRF', `PO-${asn.referenceNo}`]);
  asn.lines.forEach((line, index) => {
    segments.push(['HL', String(index + 3), '2', 'I']);
    segments.push(['LIN', String(index + 1), 'SK', line.sku, ...(line.lotNo ? ['LT', line.lotNo] : [])]);
    segments.push(['SN1', '', String(line.qty), line.uom ?? 'EA']);
  });
  segments.push(['CTT', String(asn.lines.length)]);
  return segments;
}

/** The body of a partner's 997 for one of our groups: AK1, AK2/AK5 per set, AK9. */
export function ack997(group: {
  functionalId: string;
  control: string;
  sets: Array<{ code: string; control: string; status: 'A' | 'E' | 'R'; codes?: string[] }>;
  status: 'A' | 'E' | 'P' | 'R';
}): string[][] {
  const accepted = group.sets.filter((set) => set.status !== 'R').length;
  return [
    ['AK1', group.functionalId, group.control],
    ...group.sets.flatMap((set) => [
      ['AK2', set.code, set.control],
      ['AK5', set.status, ...(set.codes ?? [])],
    ]),
    ['AK9', group.status, String(group.sets.length), String(group.sets.length), String(accepted)],
  ];
}

export interface ArrangedPartner {
  id: string;
  tenantId: string;
  /** The partner's side (the sender of what it sends). */
  partner: X12Party;
  /** Ours as the partner knows us. */
  us: X12Party;
}

/** A trading partner of a tenant, straight in the database (the partners' admin API is another part's). */
export async function arrangeTradingPartner(
  ctx: Pick<TestContext, 'runtime'>,
  input: { tenantId: string; apiKeyId?: string | null; warehouseCode?: string | null; sftpUsername?: string | null },
): Promise<ArrangedPartner> {
  const suffix = randomBytes(3).toString('hex').toUpperCase();
  const partner = { qualifier: 'ZZ', id: `PARTNER${suffix}`, groupCode: `PGC${suffix}` };
  const us = { qualifier: 'ZZ', id: `WMS${suffix}`, groupCode: `WGC${suffix}` };
  const rows = await ctx.runtime.db.sequelize.query<{ id: string }>(
    `INSERT INTO edi_trading_partners (tenant_id, name, partner_qualifier, partner_interchange_id, our_qualifier,
                                       our_interchange_id, partner_group_code, our_group_code, warehouse_code,
                                       api_key_id, sftp_username)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id`,
    {
      bind: [
        input.tenantId,
        `Partner ${suffix}`,
        partner.qualifier,
        partner.id,
        us.qualifier,
        us.id,
        partner.groupCode,
        us.groupCode,
        input.warehouseCode ?? null,
        input.apiKeyId ?? null,
        input.sftpUsername ?? null,
      ],
      type: QueryTypes.SELECT,
    },
  );
  return { id: rows[0]!.id, tenantId: input.tenantId, partner, us };
}
