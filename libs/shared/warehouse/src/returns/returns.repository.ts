import { QueryTypes, type Transaction } from 'sequelize';
import {
  documentListSql,
  routedRead,
  type CursorPosition,
  type Database,
  type ListQuery,
  type QuantityFormat,
} from '@wms/platform';
import { isoSql, qtyColumnSql, qtySql } from '../inventory/index.js';
import type { ReturnStatus } from './return.schemas.js';

/** A tenant's order as a return names it, locked so concurrent returns of one order count each other. */
export interface ReturnedOrder {
  id: string;
  orderNo: string;
  status: string;
  warehouseId: string;
}

/** What an order shipped of one item and what returns (not cancelled) already take back of it. */
export interface Returnable {
  itemId: string;
  shipped: number;
  returned: number;
}

export interface NewReturnLine {
  lineNo: number;
  itemId: string;
  qty: number;
  lotNo: string;
  reason: string | null;
}

/** A return locked for a receipt, cancel or close, with its lines. */
export interface LockedReturn {
  id: string;
  rmaNo: string;
  orderNo: string;
  warehouseId: string;
  warehouseCode: string;
  status: ReturnStatus;
  lines: { id: string; lineNo: number; itemId: string; sku: string; qty: number; receivedQty: number; lotNo: string }[];
}

export interface NewReceiptLine {
  lineNo: number;
  returnLineId: string;
  qty: number;
  lotNo: string;
  disposition: string;
  locationId: string | null;
  stockRowId: string | null;
}

const RETURN_HEADER = `r.id, r.rma_no AS "rmaNo", o.order_no AS "orderNo", w.code AS "warehouseCode", r.status,
  ${isoSql('r.created_at')} AS "createdAt", ${isoSql('r.updated_at')} AS "updatedAt",
  ${isoSql('r.received_at')} AS "receivedAt", ${isoSql('r.closed_at')} AS "closedAt",
  ${isoSql('r.cancelled_at')} AS "cancelledAt"`;

const RETURN_FROM = `returns r JOIN sales_orders o ON o.id = r.order_id JOIN warehouses w ON w.id = r.warehouse_id`;

/**
 * The return's inquiry document in one statement: header, lines (received quantities) and receipts, its
 * quantities in `format`.
 */
const returnDocument = (format: QuantityFormat) => `SELECT ${RETURN_HEADER},
  (SELECT COALESCE(json_agg(json_build_object(
      'lineNo', l.line_no, 'sku', i.sku, 'lotNo', NULLIF(l.lot_no, ''), 'qty', ${qtySql('l.qty', format)},
      'receivedQty', ${qtySql('l.received_qty', format)}, 'reason', l.reason) ORDER BY l.line_no), '[]'::json)
   FROM return_lines l JOIN items i ON i.id = l.item_id WHERE l.return_id = r.id) AS lines,
  (SELECT COALESCE(json_agg(json_build_object('id', rc.id, 'createdAt', ${isoSql('rc.created_at')}, 'lines',
      (SELECT json_agg(json_build_object(
          'lineNo', rl.line_no, 'returnLineNo', l.line_no, 'sku', i.sku, 'lotNo', NULLIF(rl.lot_no, ''),
          'qty', ${qtySql('rl.qty', format)}, 'disposition', rl.disposition, 'locationCode', loc.code) ORDER BY rl.line_no)
       FROM return_receipt_lines rl JOIN return_lines l ON l.id = rl.return_line_id JOIN items i ON i.id = l.item_id
       LEFT JOIN locations loc ON loc.id = rl.location_id WHERE rl.receipt_id = rc.id))
    ORDER BY rc.created_at, rc.id), '[]'::json)
   FROM return_receipts rc WHERE rc.return_id = r.id) AS receipts
FROM ${RETURN_FROM}`;

/** Writes and reads of returns, their lines and receipts. */
export class ReturnsRepository {
  constructor(private readonly db: Database) {}

  /** Locks the tenant's orders of these numbers in id order (the order every writer of orders locks in). */
  async lockOrders(
    tenantId: string,
    orderNos: string[],
    transaction: Transaction,
  ): Promise<Map<string, ReturnedOrder>> {
    const rows = await this.db.sequelize.query<ReturnedOrder>(
      `SELECT id, order_no AS "orderNo", status, warehouse_id AS "warehouseId"
       FROM sales_orders WHERE tenant_id = $1 AND order_no = ANY($2::text[]) ORDER BY id FOR UPDATE`,
      { bind: [tenantId, orderNos], type: QueryTypes.SELECT, transaction },
    );
    return new Map(rows.map((row) => [row.orderNo, row]));
  }

  /**
   * Per item the order shipped: the quantity shipped and what its returns already take back (a closed
   * return counts what it received, since the rest never came; a cancelled one counts nothing).
   */
  async returnable(orderId: string, transaction: Transaction): Promise<Map<string, Returnable>> {
    const rows = await this.db.sequelize.query<Returnable>(
      `SELECT l.item_id AS "itemId", sum(l.qty_shipped)::float8 AS shipped,
         COALESCE((SELECT sum(CASE WHEN r.status = 'closed' THEN rl.received_qty ELSE rl.qty END)
                   FROM return_lines rl JOIN returns r ON r.id = rl.return_id
                   WHERE r.order_id = $1 AND r.status <> 'cancelled' AND rl.item_id = l.item_id), 0)::float8 AS returned
       FROM sales_order_lines l WHERE l.order_id = $1 GROUP BY l.item_id`,
      { bind: [orderId], type: QueryTypes.SELECT, transaction },
    );
    return new Map(rows.map((row) => [row.itemId, row]));
  }

  /**
   * Inserts the return and its lines in one statement; a rmaNo the tenant already has (committed, or
   * earlier in this transaction) inserts nothing and answers null, never raises, so a batch lives on.
   */
  async insert(
    header: { tenantId: string; rmaNo: string; orderId: string; warehouseId: string },
    lines: NewReturnLine[],
    transaction: Transaction,
  ): Promise<{ id: string; createdAt: string } | null> {
    const rows = await this.db.sequelize.query<{ id: string; createdAt: string }>(
      `WITH header AS (
         INSERT INTO returns (tenant_id, rma_no, order_id, warehouse_id) VALUES ($1, $2, $3, $4)
         ON CONFLICT (tenant_id, rma_no) DO NOTHING
         RETURNING id, created_at),
       lines AS (
         INSERT INTO return_lines (return_id, line_no, item_id, qty, lot_no, reason)
         SELECT header.id, r."lineNo", r."itemId", r.qty, r."lotNo", r.reason
         FROM header, json_to_recordset($5::json) AS r("lineNo" integer, "itemId" uuid, qty numeric, "lotNo" text, reason text))
       SELECT id, ${isoSql('created_at')} AS "createdAt" FROM header`,
      {
        bind: [header.tenantId, header.rmaNo, header.orderId, header.warehouseId, JSON.stringify(lines)],
        type: QueryTypes.SELECT,
        transaction,
      },
    );
    return rows[0] ?? null;
  }

  /** The return inquiry: on the caller's transaction when given, otherwise on a read replica when routed. */
  async findDocument(
    tenantId: string,
    rmaNo: string,
    transaction?: Transaction,
    format: QuantityFormat = 'number',
  ): Promise<Record<string, unknown> | null> {
    const query = (from: Database) =>
      from.sequelize.query<Record<string, unknown>>(
        `${returnDocument(format)} WHERE r.tenant_id = $1 AND r.rma_no = $2`,
        {
          bind: [tenantId, rmaNo],
          type: QueryTypes.SELECT,
          transaction,
        },
      );
    const rows = transaction ? await query(this.db) : await routedRead(this.db, query);
    return rows[0] ?? null;
  }

  /** Locks the return row (FOR UPDATE) so its receipts, cancel and close run one after the other. */
  async lock(tenantId: string, rmaNo: string, transaction: Transaction): Promise<LockedReturn | null> {
    const rows = await this.db.sequelize.query<LockedReturn>(
      `SELECT r.id, r.rma_no AS "rmaNo", r.warehouse_id AS "warehouseId", r.status,
         (SELECT o.order_no FROM sales_orders o WHERE o.id = r.order_id) AS "orderNo",
         (SELECT w.code FROM warehouses w WHERE w.id = r.warehouse_id) AS "warehouseCode",
         (SELECT json_agg(json_build_object(
             'id', l.id, 'lineNo', l.line_no, 'itemId', l.item_id, 'sku', i.sku, 'qty', l.qty::float8,
             'receivedQty', l.received_qty::float8, 'lotNo', l.lot_no) ORDER BY l.line_no)
          FROM return_lines l JOIN items i ON i.id = l.item_id WHERE l.return_id = r.id) AS lines
       FROM returns r WHERE r.tenant_id = $1 AND r.rma_no = $2 FOR UPDATE OF r`,
      { bind: [tenantId, rmaNo], type: QueryTypes.SELECT, transaction },
    );
    return rows[0] ?? null;
  }

  /**
   * Records a receipt: its lines, the received quantities of the return's lines, and the return's state
   * (received when every line is received in full, partially_received otherwise). Answers the receipt and
   * the new state.
   */
  async recordReceipt(
    header: { tenantId: string; returnId: string; actorId: string | null },
    lines: NewReceiptLine[],
    transaction: Transaction,
  ): Promise<{ receiptId: string; status: 'partially_received' | 'received' }> {
    const [receipt] = await this.db.sequelize.query<{ id: string }>(
      `WITH receipt AS (
         INSERT INTO return_receipts (tenant_id, return_id, actor_id) VALUES ($1, $2, $3) RETURNING id),
       lines AS (
         INSERT INTO return_receipt_lines (receipt_id, line_no, return_line_id, qty, lot_no, disposition, location_id, stock_row_id)
         SELECT receipt.id, r."lineNo", r."returnLineId", r.qty, r."lotNo", r.disposition, r."locationId", r."stockRowId"
         FROM receipt, json_to_recordset($4::json)
              AS r("lineNo" integer, "returnLineId" uuid, qty numeric, "lotNo" text, disposition text, "locationId" uuid, "stockRowId" uuid))
       SELECT id FROM receipt`,
      {
        bind: [header.tenantId, header.returnId, header.actorId, JSON.stringify(lines)],
        type: QueryTypes.SELECT,
        transaction,
      },
    );
    await this.db.sequelize.query(
      `UPDATE return_lines AS l SET received_qty = l.received_qty + d.qty
       FROM (SELECT r."returnLineId", sum(r.qty) AS qty FROM json_to_recordset($1::json) AS r("returnLineId" uuid, qty numeric)
             GROUP BY r."returnLineId") AS d
       WHERE l.id = d."returnLineId"`,
      { bind: [JSON.stringify(lines)], type: QueryTypes.UPDATE, transaction },
    );
    const [state] = await this.db.sequelize.query<{ status: 'partially_received' | 'received' }>(
      `UPDATE returns AS r SET
         status = CASE WHEN NOT EXISTS (SELECT 1 FROM return_lines l WHERE l.return_id = r.id AND l.received_qty < l.qty)
                       THEN 'received' ELSE 'partially_received' END,
         received_at = CASE WHEN NOT EXISTS (SELECT 1 FROM return_lines l WHERE l.return_id = r.id AND l.received_qty < l.qty)
                            THEN now() END,
         updated_at = now()
       WHERE r.id = $1 RETURNING r.status`,
      { bind: [header.returnId], type: QueryTypes.SELECT, transaction },
    );
    return { receiptId: receipt!.id, status: state!.status };
  }

  /** Moves a locked return to closed or cancelled, stamping the time of it. */
  async finish(returnId: string, status: 'closed' | 'cancelled', transaction: Transaction): Promise<void> {
    await this.db.sequelize.query(
      `UPDATE returns SET status = $2,
         closed_at = CASE WHEN $2 = 'closed' THEN now() END,
         cancelled_at = CASE WHEN $2 = 'cancelled' THEN now() END,
         updated_at = now()
       WHERE id = $1`,
      { bind: [returnId, status], type: QueryTypes.UPDATE, transaction },
    );
  }

  /** A warehouse's locations of these codes, with their type. */
  async locations(
    warehouseId: string,
    codes: string[],
    transaction: Transaction,
  ): Promise<Map<string, { id: string; type: string }>> {
    const rows = await this.db.sequelize.query<{ id: string; code: string; type: string }>(
      'SELECT id, code, type FROM locations WHERE warehouse_id = $1 AND code = ANY($2::text[])',
      { bind: [warehouseId, codes], type: QueryTypes.SELECT, transaction },
    );
    return new Map(rows.map((row) => [row.code, { id: row.id, type: row.type }]));
  }

  /** Creates the warehouse's default quarantine location (zone and type quarantine) unless it exists. */
  async ensureQuarantineLocation(
    tenantId: string,
    warehouseId: string,
    code: string,
    transaction: Transaction,
  ): Promise<void> {
    await this.db.sequelize.query(
      `INSERT INTO locations (tenant_id, warehouse_id, code, zone, type) VALUES ($1, $2, $3, 'QUARANTINE', 'quarantine')
       ON CONFLICT (warehouse_id, code) DO NOTHING`,
      { bind: [tenantId, warehouseId, code], type: QueryTypes.INSERT, transaction },
    );
  }

  /**
   * One page of the tenant's returns in (updated_at, id) order: headers with their line totals. A return has
   * no reference of its own (its rmaNo is the client's), so referenceNo names the returned order's.
   */
  async list(
    tenantId: string,
    query: ListQuery<ReturnStatus>,
    format: QuantityFormat,
  ): Promise<(Record<string, unknown> & { cursor: CursorPosition })[]> {
    const list = documentListSql('r', tenantId, query, (bind) => `o.tenant_id = $1 AND o.reference_no = ${bind}`);
    return routedRead(this.db, (from) =>
      from.sequelize.query(
        `SELECT ${RETURN_HEADER},
           (SELECT count(*)::int FROM return_lines l WHERE l.return_id = r.id) AS "lineCount",
           (SELECT ${qtyColumnSql('COALESCE(sum(l.qty), 0)', format)} FROM return_lines l WHERE l.return_id = r.id) AS qty,
           (SELECT ${qtyColumnSql('COALESCE(sum(l.received_qty), 0)', format)} FROM return_lines l WHERE l.return_id = r.id) AS "receivedQty",
           ${list.cursor}
         FROM ${RETURN_FROM}
         ${list.page}`,
        { bind: list.bind, type: QueryTypes.SELECT },
      ),
    );
  }
}
