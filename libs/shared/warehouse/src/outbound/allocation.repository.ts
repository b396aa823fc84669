import { QueryTypes, type Transaction } from 'sequelize';
import type { Database } from '@wms/platform';

/** An order line with what it still needs allocated. */
export interface LineNeed {
  id: string;
  lineNo: number;
  itemId: string;
  need: number;
}

/** A stock row allocation may draw from, locked, with what it has available now. */
export interface CandidateRow {
  id: string;
  itemId: string;
  available: number;
}

/** Reserve `qty` of a stock row for an order line. */
export interface Reservation {
  lineId: string;
  stockRowId: string;
  qty: number;
}

/**
 * The FEFO order of allocation: earliest expiry first, rows without expiry last, then pick faces before
 * other locations, then location code (lot and id only make the order total).
 */
const FEFO_ORDER = 'c.expiry_date ASC NULLS LAST, c.pick_face DESC, c.location_code, c.lot_no, c.id';

export class AllocationRepository {
  constructor(private readonly db: Database) {}

  async linesInNeed(orderId: string, transaction: Transaction): Promise<LineNeed[]> {
    return this.db.sequelize.query<LineNeed>(
      `SELECT id, line_no AS "lineNo", item_id AS "itemId", (qty_ordered - qty_allocated)::float8 AS need
       FROM sales_order_lines WHERE order_id = $1 AND qty_allocated < qty_ordered ORDER BY line_no`,
      { bind: [orderId], type: QueryTypes.SELECT, transaction },
    );
  }

  /**
   * Locks the warehouse's rows of these items that have stock available, in id order (the order every
   * stock change locks in, so allocations and other changes never deadlock), and answers them in FEFO
   * order. Stock held in a quarantine location and lots past their expiry date are not offered. A row
   * another transaction changed while we waited is re-read after the lock (PostgreSQL re-checks the WHERE
   * on its newest version), so `available` is what it has now.
   */
  async lockCandidates(warehouseId: string, itemIds: string[], transaction: Transaction): Promise<CandidateRow[]> {
    return this.db.sequelize.query<CandidateRow>(
      `WITH locked AS (
         SELECT s.id, s.item_id, s.lot_no, s.expiry_date, s.qty_on_hand, s.qty_allocated, l.code AS location_code, l.pick_face
         FROM stock_rows s JOIN locations l ON l.id = s.location_id
         WHERE s.warehouse_id = $1 AND s.item_id = ANY($2::uuid[]) AND s.qty_on_hand > s.qty_allocated
           AND l.type <> 'quarantine' AND (s.expiry_date IS NULL OR s.expiry_date >= current_date)
         ORDER BY s.id
         FOR UPDATE OF s)
       SELECT c.id, c.item_id AS "itemId", (c.qty_on_hand - c.qty_allocated)::float8 AS available
       FROM locked c
       WHERE c.qty_on_hand > c.qty_allocated
       ORDER BY ${FEFO_ORDER}`,
      { bind: [warehouseId, itemIds], type: QueryTypes.SELECT, transaction },
    );
  }

  /**
   * Records reservations whose stock rows were already changed: an allocation of the same line and row
   * that still reserves is topped up (so a top-up does not make a second pick task at the same place),
   * otherwise a new allocation is made; the lines' allocated quantities grow.
   */
  async reserve(
    tenantId: string,
    orderId: string,
    reservations: Reservation[],
    transaction: Transaction,
  ): Promise<void> {
    if (!reservations.length) return;
    await this.db.sequelize.query(
      `WITH plan AS (SELECT * FROM json_to_recordset($3::json) AS p("lineId" uuid, "stockRowId" uuid, qty numeric)),
            existing AS (
              SELECT DISTINCT ON (order_line_id, stock_row_id) id, order_line_id, stock_row_id
              FROM allocations WHERE order_id = $2 AND qty > 0
              ORDER BY order_line_id, stock_row_id, created_at, id),
            topped AS (
              UPDATE allocations a SET qty = a.qty + p.qty, updated_at = now()
              FROM plan p JOIN existing e ON e.order_line_id = p."lineId" AND e.stock_row_id = p."stockRowId"
              WHERE a.id = e.id
              RETURNING a.order_line_id, a.stock_row_id),
            inserted AS (
              INSERT INTO allocations (tenant_id, order_id, order_line_id, stock_row_id, qty)
              SELECT $1, $2, p."lineId", p."stockRowId", p.qty FROM plan p
              WHERE NOT EXISTS (SELECT 1 FROM existing e WHERE e.order_line_id = p."lineId" AND e.stock_row_id = p."stockRowId"))
       UPDATE sales_order_lines l SET qty_allocated = l.qty_allocated + s.qty
       FROM (SELECT "lineId", sum(qty) AS qty FROM plan GROUP BY "lineId") s
       WHERE l.id = s."lineId"`,
      { bind: [tenantId, orderId, JSON.stringify(reservations)], type: QueryTypes.UPDATE, transaction },
    );
  }

  /** The lines as `order.allocated` reports them, and whether every line is fully allocated. */
  async allocatedLines(
    orderId: string,
    transaction: Transaction,
  ): Promise<{ lineNo: number; sku: string; qtyOrdered: number; qtyAllocated: number }[]> {
    return this.db.sequelize.query(
      `SELECT l.line_no AS "lineNo", i.sku, l.qty_ordered::float8 AS "qtyOrdered", l.qty_allocated::float8 AS "qtyAllocated"
       FROM sales_order_lines l JOIN items i ON i.id = l.item_id WHERE l.order_id = $1 ORDER BY l.line_no`,
      { bind: [orderId], type: QueryTypes.SELECT, transaction },
    );
  }
}
