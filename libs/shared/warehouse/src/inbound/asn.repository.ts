import { QueryTypes, type Transaction } from 'sequelize';
import { documentListSql, routedRead, type Database } from '@wms/platform';
import { dateSql, isoSql, qtySql } from '../inventory/index.js';
import type { CursorPosition, ListQuery } from '@wms/platform';
import type { AsnStatus } from './asn.schemas.js';

export interface NewAsn {
  asnNo: string;
  referenceNo: string;
  warehouseId: string;
  supplierId: string;
  expectedDate: string | null;
}

export interface NewAsnLine {
  asnId: string;
  lineNo: number;
  itemId: string;
  uomCode: string;
  expectedQty: number;
  lotNo: string | null;
  expiryDate: string | null;
}

export interface InsertedAsn {
  id: string;
  asnNo: string;
  referenceNo: string;
  createdAt: string;
}

/** An ASN locked for receiving, with its lines. */
export interface LockedAsn {
  id: string;
  asnNo: string;
  warehouseId: string;
  warehouseCode: string;
  status: AsnStatus;
  lines: {
    id: string;
    lineNo: number;
    itemId: string;
    sku: string;
    uomCode: string;
    expectedQty: number;
    receivedQty: number;
    lotNo: string | null;
    expiryDate: string | null;
  }[];
}

const ASN_HEADER = `a.id, a.asn_no AS "asnNo", a.reference_no AS "referenceNo", w.code AS "warehouseCode",
  p.code AS "supplierCode", ${dateSql('a.expected_date')} AS "expectedDate", a.status,
  ${isoSql('a.created_at')} AS "createdAt", ${isoSql('a.updated_at')} AS "updatedAt"`;

/**
 * The ASN's inquiry document in one statement: header, lines (received quantities) and linked GRNs
 * with their lines, aggregated as JSON by PostgreSQL (no query per line). Its quantities are exact decimal
 * strings, the newest versions' shape; older versions are rendered from it at the answer (ADR 0200).
 */
const ASN_DOCUMENT = `SELECT ${ASN_HEADER},
  (SELECT COALESCE(json_agg(json_build_object(
      'lineNo', l.line_no, 'sku', i.sku, 'uomCode', l.uom_code, 'expectedQty', ${qtySql('l.expected_qty', 'decimal')},
      'receivedQty', ${qtySql('l.received_qty', 'decimal')}, 'lotNo', l.lot_no, 'expiryDate', ${dateSql('l.expiry_date')})
    ORDER BY l.line_no), '[]'::json)
   FROM asn_lines l JOIN items i ON i.id = l.item_id WHERE l.asn_id = a.id) AS lines,
  (SELECT COALESCE(json_agg(json_build_object('grnNo', g.grn_no, 'createdAt', ${isoSql('g.created_at')}, 'lines',
      (SELECT json_agg(json_build_object(
          'lineNo', gl.line_no, 'asnLineNo', al.line_no, 'sku', gi.sku, 'qty', ${qtySql('gl.qty', 'decimal')},
          'lotNo', NULLIF(gl.lot_no, ''), 'expiryDate', ${dateSql('gl.expiry_date')}, 'locationCode', loc.code)
        ORDER BY gl.line_no)
       FROM grn_lines gl JOIN items gi ON gi.id = gl.item_id JOIN locations loc ON loc.id = gl.location_id
       LEFT JOIN asn_lines al ON al.id = gl.asn_line_id WHERE gl.grn_id = g.id))
    ORDER BY g.created_at, g.grn_no), '[]'::json)
   FROM grns g WHERE g.asn_id = a.id) AS grns
FROM asns a JOIN warehouses w ON w.id = a.warehouse_id JOIN partners p ON p.id = a.supplier_id`;

/** An ASN's status and its lines once a receipt is recorded. */
export interface ReceiptState {
  status: AsnStatus;
  lines: { lineNo: number; sku: string; expectedQty: number; receivedQty: number }[];
}

export class AsnRepository {
  constructor(private readonly db: Database) {}

  /**
   * Inserts headers in entry order; an entry whose referenceNo the tenant already has (committed, or
   * earlier in this batch) is skipped by the unique index, never raised, so the batch's transaction
   * lives on. Concurrent inserts of one reference wait for each other; one wins.
   */
  async insertAsns(tenantId: string, asns: NewAsn[], transaction: Transaction): Promise<InsertedAsn[]> {
    return this.db.sequelize.query<InsertedAsn>(
      `INSERT INTO asns (tenant_id, asn_no, reference_no, warehouse_id, supplier_id, expected_date)
       SELECT $1::uuid, e.value->>'asnNo', e.value->>'referenceNo', (e.value->>'warehouseId')::uuid,
              (e.value->>'supplierId')::uuid, (e.value->>'expectedDate')::date
       FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY AS e(value, ord)
       ORDER BY e.ord
       ON CONFLICT (tenant_id, reference_no) DO NOTHING
       RETURNING id, asn_no AS "asnNo", reference_no AS "referenceNo", ${isoSql('created_at')} AS "createdAt"`,
      { bind: [tenantId, JSON.stringify(asns)], type: QueryTypes.SELECT, transaction },
    );
  }

  async insertLines(lines: NewAsnLine[], transaction: Transaction): Promise<void> {
    if (!lines.length) return;
    await this.db.sequelize.query(
      `INSERT INTO asn_lines (asn_id, line_no, item_id, uom_code, expected_qty, lot_no, expiry_date)
       SELECT r."asnId", r."lineNo", r."itemId", r."uomCode", r."expectedQty", r."lotNo", r."expiryDate"
       FROM json_to_recordset($1::json)
            AS r("asnId" uuid, "lineNo" integer, "itemId" uuid, "uomCode" text, "expectedQty" numeric, "lotNo" text, "expiryDate" date)`,
      { bind: [JSON.stringify(lines)], type: QueryTypes.INSERT, transaction },
    );
  }

  /** The numbers of the tenant's ASNs with these references. */
  async numbersByReference(
    tenantId: string,
    references: string[],
    transaction?: Transaction,
  ): Promise<Map<string, string>> {
    const rows = await this.db.sequelize.query<{ referenceNo: string; asnNo: string }>(
      'SELECT reference_no AS "referenceNo", asn_no AS "asnNo" FROM asns WHERE tenant_id = $1 AND reference_no = ANY($2::text[])',
      { bind: [tenantId, references], type: QueryTypes.SELECT, transaction },
    );
    return new Map(rows.map((row) => [row.referenceNo, row.asnNo]));
  }

  /** The ASN inquiry's read, on a read replica when routed. */
  async findDocument(tenantId: string, asnNo: string): Promise<Record<string, unknown> | null> {
    const rows = await routedRead(this.db, (from) =>
      from.sequelize.query<Record<string, unknown>>(`${ASN_DOCUMENT} WHERE a.tenant_id = $1 AND a.asn_no = $2`, {
        bind: [tenantId, asnNo],
        type: QueryTypes.SELECT,
      }),
    );
    return rows[0] ?? null;
  }

  /** Locks the ASN row (FOR UPDATE) so receipts of one ASN run one after the other; reads its lines. */
  async lockForReceipt(tenantId: string, asnNo: string, transaction: Transaction): Promise<LockedAsn | null> {
    const rows = await this.db.sequelize.query<LockedAsn>(
      `SELECT a.id, a.asn_no AS "asnNo", a.warehouse_id AS "warehouseId", a.status,
         (SELECT w.code FROM warehouses w WHERE w.id = a.warehouse_id) AS "warehouseCode",
         (SELECT json_agg(json_build_object(
             'id', l.id, 'lineNo', l.line_no, 'itemId', l.item_id, 'sku', i.sku, 'uomCode', l.uom_code,
             'expectedQty', l.expected_qty::float8, 'receivedQty', l.received_qty::float8,
             'lotNo', l.lot_no, 'expiryDate', ${dateSql('l.expiry_date')}) ORDER BY l.line_no)
          FROM asn_lines l JOIN items i ON i.id = l.item_id WHERE l.asn_id = a.id) AS lines
       FROM asns a WHERE a.tenant_id = $1 AND a.asn_no = $2 FOR UPDATE OF a`,
      { bind: [tenantId, asnNo], type: QueryTypes.SELECT, transaction },
    );
    return rows[0] ?? null;
  }

  /**
   * Adds received quantities to lines and moves the ASN to receiving, or completed when every line is
   * received in full. Returns the new status and the lines as they now stand.
   */
  async recordReceipt(
    asnId: string,
    received: { asnLineId: string; qty: number }[],
    transaction: Transaction,
  ): Promise<ReceiptState> {
    await this.db.sequelize.query(
      `UPDATE asn_lines AS l SET received_qty = l.received_qty + d.qty
       FROM (SELECT r."asnLineId", sum(r.qty) AS qty FROM json_to_recordset($1::json) AS r("asnLineId" uuid, qty numeric)
             GROUP BY r."asnLineId") AS d
       WHERE l.id = d."asnLineId"`,
      { bind: [JSON.stringify(received)], type: QueryTypes.UPDATE, transaction },
    );
    const rows = await this.db.sequelize.query<ReceiptState>(
      `UPDATE asns AS a SET
         status = CASE WHEN NOT EXISTS (SELECT 1 FROM asn_lines l WHERE l.asn_id = a.id AND l.received_qty < l.expected_qty)
                       THEN 'completed' ELSE 'receiving' END,
         completed_at = CASE WHEN NOT EXISTS (SELECT 1 FROM asn_lines l WHERE l.asn_id = a.id AND l.received_qty < l.expected_qty)
                             THEN now() END,
         updated_at = now()
       WHERE a.id = $1
       RETURNING a.status,
         (SELECT json_agg(json_build_object('lineNo', l.line_no, 'sku', i.sku, 'expectedQty', l.expected_qty::float8,
                                            'receivedQty', l.received_qty::float8) ORDER BY l.line_no)
          FROM asn_lines l JOIN items i ON i.id = l.item_id WHERE l.asn_id = a.id) AS lines`,
      { bind: [asnId], type: QueryTypes.SELECT, transaction },
    );
    return rows[0]!;
  }

  /** One page of the tenant's ASNs in (updated_at, id) order: headers only. */
  async list(
    tenantId: string,
    query: ListQuery<AsnStatus>,
  ): Promise<(Record<string, unknown> & { cursor: CursorPosition })[]> {
    const list = documentListSql('a', tenantId, query);
    return routedRead(this.db, (from) =>
      from.sequelize.query(
        `SELECT ${ASN_HEADER},
         ${list.cursor}
       FROM asns a JOIN warehouses w ON w.id = a.warehouse_id JOIN partners p ON p.id = a.supplier_id
       ${list.page}`,
        { bind: list.bind, type: QueryTypes.SELECT },
      ),
    );
  }
}
