import { QueryTypes, type Transaction } from 'sequelize';
import type { Database } from '@wms/platform';
import { isoSql } from '../inventory/index.js';

export interface ShipmentView {
  id: string;
  shipmentNo: string;
  orderNo: string;
  warehouseCode: string;
  carrier: string | null;
  trackingNo: string | null;
  shippedAt: string;
  lines: { lineNo: number; sku: string; qtyShipped: number }[];
}

export class ShippingRepository {
  constructor(private readonly db: Database) {}

  /** What allocations still reserve (short-pick remainders): shipping gives it back. */
  async remainingReservations(
    orderId: string,
    transaction: Transaction,
  ): Promise<{ stockRowId: string; qty: number }[]> {
    return this.db.sequelize.query(
      'SELECT stock_row_id AS "stockRowId", qty::float8 AS qty FROM allocations WHERE order_id = $1 AND qty > 0',
      { bind: [orderId], type: QueryTypes.SELECT, transaction },
    );
  }

  /**
   * The order's side of shipping, once remaining reservations are off their rows: allocations reserve
   * nothing more, each line's allocated comes down to what it picked and everything picked is shipped.
   */
  async closeLines(orderId: string, transaction: Transaction): Promise<void> {
    await this.db.sequelize.query(
      `WITH released AS (UPDATE allocations SET qty = 0, updated_at = now() WHERE order_id = $1 AND qty > 0)
       UPDATE sales_order_lines SET qty_allocated = qty_picked, qty_shipped = qty_picked WHERE order_id = $1`,
      { bind: [orderId], type: QueryTypes.UPDATE, transaction },
    );
  }

  async insert(
    input: { tenantId: string; orderId: string; shipmentNo: string; carrier: string | null; trackingNo: string | null },
    transaction: Transaction,
  ): Promise<string> {
    const rows = await this.db.sequelize.query<{ id: string }>(
      `INSERT INTO shipments (tenant_id, order_id, shipment_no, carrier, tracking_no) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
      {
        bind: [input.tenantId, input.orderId, input.shipmentNo, input.carrier, input.trackingNo],
        type: QueryTypes.SELECT,
        transaction,
      },
    );
    return rows[0]!.id;
  }

  /**
   * What the order shipped, per line and lot: the picks confirmed of each line from each lot (a line picked
   * from two lots ships in two entries), in line then lot order, as `order.shipped` reports it.
   */
  async shippedLots(
    orderId: string,
    transaction: Transaction,
  ): Promise<{ lineNo: number; sku: string; uomCode: string; lotNo: string | null; qty: number }[]> {
    return this.db.sequelize.query(
      `SELECT l.line_no AS "lineNo", i.sku, l.uom_code AS "uomCode", NULLIF(t.lot_no, '') AS "lotNo",
              sum(t.qty_picked)::float8 AS qty
       FROM pick_tasks t JOIN sales_order_lines l ON l.id = t.order_line_id JOIN items i ON i.id = l.item_id
       WHERE t.order_id = $1 AND t.qty_picked > 0
       GROUP BY l.line_no, i.sku, l.uom_code, t.lot_no
       ORDER BY l.line_no, t.lot_no`,
      { bind: [orderId], type: QueryTypes.SELECT, transaction },
    );
  }

  async view(shipmentId: string, transaction: Transaction): Promise<ShipmentView> {
    const rows = await this.db.sequelize.query<ShipmentView>(
      `SELECT s.id, s.shipment_no AS "shipmentNo", o.order_no AS "orderNo", w.code AS "warehouseCode", s.carrier,
              s.tracking_no AS "trackingNo", ${isoSql('s.shipped_at')} AS "shippedAt",
              (SELECT COALESCE(json_agg(json_build_object('lineNo', l.line_no, 'sku', i.sku, 'qtyShipped', l.qty_shipped::float8)
                 ORDER BY l.line_no), '[]'::json)
               FROM sales_order_lines l JOIN items i ON i.id = l.item_id WHERE l.order_id = o.id AND l.qty_shipped > 0) AS lines
       FROM shipments s JOIN sales_orders o ON o.id = s.order_id JOIN warehouses w ON w.id = o.warehouse_id
       WHERE s.id = $1`,
      { bind: [shipmentId], type: QueryTypes.SELECT, transaction },
    );
    return rows[0]!;
  }
}
