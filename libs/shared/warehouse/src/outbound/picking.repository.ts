import { QueryTypes, type Transaction } from 'sequelize';
import type { Database } from '@wms/platform';

/** A pick task as the order inquiry and the confirm answer show it. */
export interface PickTaskView {
  id: string;
  orderNo: string;
  lineNo: number;
  sku: string;
  locationCode: string;
  lotNo: string | null;
  qty: number;
  qtyPicked: number;
  status: 'open' | 'picked' | 'cancelled';
}

/** A pick task locked for confirmation. */
export interface LockedTask {
  id: string;
  stockRowId: string;
  qty: number;
  status: PickTaskView['status'];
}

const TASK_VIEW = `SELECT t.id, o.order_no AS "orderNo", l.line_no AS "lineNo", i.sku, loc.code AS "locationCode",
  NULLIF(t.lot_no, '') AS "lotNo", t.qty::float8 AS qty, t.qty_picked::float8 AS "qtyPicked", t.status
  FROM pick_tasks t JOIN sales_orders o ON o.id = t.order_id JOIN sales_order_lines l ON l.id = t.order_line_id
  JOIN items i ON i.id = l.item_id JOIN locations loc ON loc.id = t.location_id`;

export class PickingRepository {
  constructor(private readonly db: Database) {}

  /**
   * One open pick task for every allocation of the order that still reserves stock, at its row's
   * location and lot, for what it reserves. Answers them as `order.released` lists them.
   */
  async createTasks(
    orderId: string,
    transaction: Transaction,
  ): Promise<{ id: string; sku: string; locationCode: string; lotNo: string | null; qty: number }[]> {
    return this.db.sequelize.query(
      `WITH created AS (
         INSERT INTO pick_tasks (tenant_id, order_id, order_line_id, allocation_id, stock_row_id, location_id, lot_no, qty)
         SELECT a.tenant_id, a.order_id, a.order_line_id, a.id, s.id, s.location_id, s.lot_no, a.qty
         FROM allocations a JOIN stock_rows s ON s.id = a.stock_row_id
         WHERE a.order_id = $1 AND a.qty > 0
         RETURNING id, order_line_id, location_id, lot_no, qty)
       SELECT c.id, i.sku, loc.code AS "locationCode", NULLIF(c.lot_no, '') AS "lotNo", c.qty::float8 AS qty
       FROM created c JOIN sales_order_lines l ON l.id = c.order_line_id JOIN items i ON i.id = l.item_id
       JOIN locations loc ON loc.id = c.location_id
       ORDER BY l.line_no, loc.code, c.id`,
      { bind: [orderId], type: QueryTypes.SELECT, transaction },
    );
  }

  /** The order a task of the tenant belongs to (read without a lock: the order is locked next). */
  async orderOf(tenantId: string, taskId: string, transaction: Transaction): Promise<string | null> {
    const rows = await this.db.sequelize.query<{ orderId: string }>(
      'SELECT order_id AS "orderId" FROM pick_tasks WHERE tenant_id = $1 AND id = $2',
      {
        bind: [tenantId, taskId],
        type: QueryTypes.SELECT,
        transaction,
      },
    );
    return rows[0]?.orderId ?? null;
  }

  async lockTask(taskId: string, transaction: Transaction): Promise<LockedTask | undefined> {
    const rows = await this.db.sequelize.query<LockedTask>(
      'SELECT id, stock_row_id AS "stockRowId", qty::float8 AS qty, status FROM pick_tasks WHERE id = $1 FOR UPDATE',
      { bind: [taskId], type: QueryTypes.SELECT, transaction },
    );
    return rows[0];
  }

  /**
   * The picked-stock model: what was picked leaves the stock row (on hand and allocated both fall by
   * qtyPicked, a change the service makes through the write kernel) and is held by the order line
   * (qty_picked) until it ships, or goes back on hand at this row if the order is cancelled. A short pick
   * leaves the difference reserved: the allocation and the row's allocated keep it, until the order is
   * cancelled or ships. This records the task, the allocation and the line.
   */
  async confirm(task: LockedTask, qtyPicked: number, transaction: Transaction): Promise<void> {
    await this.db.sequelize.query(
      `WITH task AS (UPDATE pick_tasks SET status = 'picked', qty_picked = $2, confirmed_at = now(), updated_at = now()
                     WHERE id = $1 RETURNING order_line_id, allocation_id),
            allocation AS (UPDATE allocations a SET qty = a.qty - $2, updated_at = now() FROM task WHERE a.id = task.allocation_id)
       UPDATE sales_order_lines l SET qty_picked = l.qty_picked + $2 FROM task WHERE l.id = task.order_line_id`,
      { bind: [task.id, qtyPicked], type: QueryTypes.UPDATE, transaction },
    );
  }

  /** The order's open tasks, in the order the order inquiry lists them. */
  async openTaskIds(orderId: string, transaction: Transaction): Promise<string[]> {
    const rows = await this.db.sequelize.query<{ id: string }>(
      `SELECT t.id FROM pick_tasks t JOIN sales_order_lines l ON l.id = t.order_line_id
        WHERE t.order_id = $1 AND t.status = 'open' ORDER BY l.line_no, t.id`,
      { bind: [orderId], type: QueryTypes.SELECT, transaction },
    );
    return rows.map((row) => row.id);
  }

  async openTaskCount(orderId: string, transaction: Transaction): Promise<number> {
    const rows = await this.db.sequelize.query<{ count: number }>(
      "SELECT count(*)::int AS count FROM pick_tasks WHERE order_id = $1 AND status = 'open'",
      {
        bind: [orderId],
        type: QueryTypes.SELECT,
        transaction,
      },
    );
    return rows[0]!.count;
  }

  async view(taskId: string, transaction: Transaction): Promise<PickTaskView> {
    const rows = await this.db.sequelize.query<PickTaskView>(`${TASK_VIEW} WHERE t.id = $1`, {
      bind: [taskId],
      type: QueryTypes.SELECT,
      transaction,
    });
    return rows[0]!;
  }
}
