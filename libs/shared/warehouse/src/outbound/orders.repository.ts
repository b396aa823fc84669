import { QueryTypes, type Transaction } from 'sequelize';
import { PreparedStatement, documentListSql, routedRead, type Database, type QuantityFormat } from '@wms/platform';
import { dateSql, isoSql, qtySql } from '../inventory/index.js';
import type { CursorPosition, ListQuery } from '@wms/platform';
import type { OrderStatus } from './order.schemas.js';

export interface NewOrder {
  orderNo: string;
  referenceNo: string;
  warehouseId: string;
  customerId: string;
  requiredDate: string | null;
  priority: number;
  shipTo: unknown;
}

export interface NewOrderLine {
  orderId: string;
  lineNo: number;
  itemId: string;
  uomCode: string;
  qtyOrdered: number;
}

export interface InsertedOrder {
  id: string;
  orderNo: string;
  referenceNo: string;
  createdAt: string;
}

export interface LockedOrder {
  id: string;
  orderNo: string;
  referenceNo: string;
  status: OrderStatus;
}

const ORDER_HEADER = `o.id, o.order_no AS "orderNo", o.reference_no AS "referenceNo", w.code AS "warehouseCode",
  c.code AS "customerCode", ${dateSql('o.required_date')} AS "requiredDate", o.priority, o.ship_to AS "shipTo", o.status,
  ${isoSql('o.created_at')} AS "createdAt", ${isoSql('o.updated_at')} AS "updatedAt", ${isoSql('o.cancelled_at')} AS "cancelledAt"`;

const ORDER_FROM =
  'FROM sales_orders o JOIN warehouses w ON w.id = o.warehouse_id JOIN partners c ON c.id = o.customer_id';

/**
 * The order inquiry in one statement: header, lines, pick tasks and the summary of the lines, its quantities
 * in the caller's version's format (ADR 0200).
 */
const orderDocument = (format: QuantityFormat) => `SELECT ${ORDER_HEADER},
  (SELECT COALESCE(json_agg(json_build_object(
      'lineNo', l.line_no, 'sku', i.sku, 'uomCode', l.uom_code, 'qtyOrdered', ${qtySql('l.qty_ordered', format)},
      'qtyAllocated', ${qtySql('l.qty_allocated', format)}, 'qtyPicked', ${qtySql('l.qty_picked', format)}, 'qtyShipped', ${qtySql('l.qty_shipped', format)})
    ORDER BY l.line_no), '[]'::json)
   FROM sales_order_lines l JOIN items i ON i.id = l.item_id WHERE l.order_id = o.id) AS lines,
  (SELECT COALESCE(json_agg(json_build_object(
      'id', t.id, 'lineNo', l.line_no, 'sku', i.sku, 'locationCode', loc.code, 'lotNo', NULLIF(t.lot_no, ''),
      'qty', ${qtySql('t.qty', format)}, 'qtyPicked', ${qtySql('t.qty_picked', format)}, 'status', t.status)
    ORDER BY l.line_no, t.created_at, loc.code, t.id), '[]'::json)
   FROM pick_tasks t JOIN sales_order_lines l ON l.id = t.order_line_id JOIN items i ON i.id = l.item_id
   JOIN locations loc ON loc.id = t.location_id WHERE t.order_id = o.id) AS "pickTasks",
  (SELECT json_build_object(
      'totalOrdered', ${qtySql('COALESCE(sum(l.qty_ordered), 0)', format)}, 'totalAllocated', ${qtySql('COALESCE(sum(l.qty_allocated), 0)', format)},
      'totalPicked', ${qtySql('COALESCE(sum(l.qty_picked), 0)', format)}, 'totalShipped', ${qtySql('COALESCE(sum(l.qty_shipped), 0)', format)})
   FROM sales_order_lines l WHERE l.order_id = o.id) AS summary
${ORDER_FROM}`;

/**
 * The order inquiry: $1 tenant id, $2 order number; one row, or none for an unknown order, whose
 * `document` is the answer as JSON text (it goes into the response as it is, never parsed and serialized).
 */
export const orderInquirySql = (format: QuantityFormat): string => `SELECT row_to_json(d)::text AS document
  FROM (${orderDocument(format)} WHERE o.tenant_id = $1 AND o.order_no = $2) d`;

/** The inquiry as `2026-11-21` sends it (the bench's bare server compares with it). */
export const ORDER_INQUIRY_SQL = orderInquirySql('number');

const orderInquiries: Record<QuantityFormat, { text: string; statement: PreparedStatement<{ document: string }> }> = {
  number: { text: ORDER_INQUIRY_SQL, statement: new PreparedStatement('order-inquiry', ORDER_INQUIRY_SQL) },
  decimal: {
    text: orderInquirySql('decimal'),
    statement: new PreparedStatement('order-inquiry-decimal', orderInquirySql('decimal')),
  },
};

export class OrdersRepository {
  constructor(private readonly db: Database) {}

  /**
   * Inserts headers in entry order; a referenceNo the tenant already has is skipped by the unique index (see
   * AsnRepository).
   */
  async insertOrders(tenantId: string, orders: NewOrder[], transaction: Transaction): Promise<InsertedOrder[]> {
    return this.db.sequelize.query<InsertedOrder>(
      `INSERT INTO sales_orders (tenant_id, order_no, reference_no, warehouse_id, customer_id, required_date, priority, ship_to)
       SELECT $1::uuid, e.value->>'orderNo', e.value->>'referenceNo', (e.value->>'warehouseId')::uuid,
              (e.value->>'customerId')::uuid, (e.value->>'requiredDate')::date, (e.value->>'priority')::integer, NULLIF(e.value->'shipTo', 'null'::jsonb)
       FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY AS e(value, ord)
       ORDER BY e.ord
       ON CONFLICT (tenant_id, reference_no) DO NOTHING
       RETURNING id, order_no AS "orderNo", reference_no AS "referenceNo", ${isoSql('created_at')} AS "createdAt"`,
      { bind: [tenantId, JSON.stringify(orders)], type: QueryTypes.SELECT, transaction },
    );
  }

  async insertLines(lines: NewOrderLine[], transaction: Transaction): Promise<void> {
    if (!lines.length) return;
    await this.db.sequelize.query(
      `INSERT INTO sales_order_lines (order_id, line_no, item_id, uom_code, qty_ordered)
       SELECT r."orderId", r."lineNo", r."itemId", r."uomCode", r."qtyOrdered"
       FROM json_to_recordset($1::json) AS r("orderId" uuid, "lineNo" integer, "itemId" uuid, "uomCode" text, "qtyOrdered" numeric)`,
      { bind: [JSON.stringify(lines)], type: QueryTypes.INSERT, transaction },
    );
  }

  async numbersByReference(
    tenantId: string,
    references: string[],
    transaction?: Transaction,
  ): Promise<Map<string, string>> {
    const rows = await this.db.sequelize.query<{ referenceNo: string; orderNo: string }>(
      'SELECT reference_no AS "referenceNo", order_no AS "orderNo" FROM sales_orders WHERE tenant_id = $1 AND reference_no = ANY($2::text[])',
      { bind: [tenantId, references], type: QueryTypes.SELECT, transaction },
    );
    return new Map(rows.map((row) => [row.referenceNo, row.orderNo]));
  }

  /**
   * The order as the inquiry answers it, as JSON text; null when the tenant has no such order. Inside a
   * transaction it reads what that transaction sees (an operation answering with the order it changed).
   */
  async findDocumentJson(
    tenantId: string,
    orderNo: string,
    transaction?: Transaction,
    format: QuantityFormat = 'number',
  ): Promise<string | null> {
    const inquiry = orderInquiries[format];
    if (transaction) {
      const rows = await this.db.sequelize.query<{ document: string }>(inquiry.text, {
        bind: [tenantId, orderNo],
        type: QueryTypes.SELECT,
        transaction,
      });
      return rows[0]?.document ?? null;
    }
    const [row] = await routedRead(this.db, (from) => inquiry.statement.rows(from.sequelize, [tenantId, orderNo]));
    return row?.document ?? null;
  }

  /** Locks the order row: every change of an order's state runs behind this lock. */
  async lock(tenantId: string, orderNo: string, transaction: Transaction): Promise<LockedOrder | null> {
    const rows = await this.db.sequelize.query<LockedOrder>(
      `SELECT id, order_no AS "orderNo", reference_no AS "referenceNo", status
       FROM sales_orders WHERE tenant_id = $1 AND order_no = $2 FOR UPDATE`,
      { bind: [tenantId, orderNo], type: QueryTypes.SELECT, transaction },
    );
    return rows[0] ?? null;
  }

  /** What the order still holds in stock: quantities reserved by allocations, and quantities picked off their rows. */
  async heldStock(
    orderId: string,
    transaction: Transaction,
  ): Promise<{ kind: 'allocated' | 'picked'; stockRowId: string; qty: number }[]> {
    return this.db.sequelize.query(
      `SELECT 'allocated' AS kind, stock_row_id AS "stockRowId", qty::float8 AS qty FROM allocations WHERE order_id = $1 AND qty > 0
       UNION ALL
       SELECT 'picked', stock_row_id, qty_picked::float8 FROM pick_tasks WHERE order_id = $1 AND status = 'picked' AND qty_picked > 0`,
      { bind: [orderId], type: QueryTypes.SELECT, transaction },
    );
  }

  /** The order's side of a cancel, once its stock is given back: nothing reserved or picked, open tasks cancelled. */
  async markCancelled(orderId: string, transaction: Transaction): Promise<void> {
    await this.db.sequelize.query(
      `WITH released AS (UPDATE allocations SET qty = 0, updated_at = now() WHERE order_id = $1 AND qty > 0),
            tasks AS (UPDATE pick_tasks SET status = 'cancelled', updated_at = now() WHERE order_id = $1 AND status = 'open'),
            lines AS (UPDATE sales_order_lines SET qty_allocated = 0, qty_picked = 0 WHERE order_id = $1)
       UPDATE sales_orders SET status = 'cancelled', cancelled_at = now(), updated_at = now() WHERE id = $1`,
      { bind: [orderId], type: QueryTypes.UPDATE, transaction },
    );
  }

  async list(
    tenantId: string,
    query: ListQuery<OrderStatus>,
  ): Promise<(Record<string, unknown> & { cursor: CursorPosition })[]> {
    const list = documentListSql('o', tenantId, query);
    return routedRead(this.db, (from) =>
      from.sequelize.query(
        `SELECT ${ORDER_HEADER},
         ${list.cursor}
       ${ORDER_FROM}
       ${list.page}`,
        { bind: list.bind, type: QueryTypes.SELECT },
      ),
    );
  }
}
