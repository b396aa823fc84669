import { QueryTypes, type Transaction } from 'sequelize';
import type { Database } from '@wms/platform';
import { StockRepository } from '../inventory/index.js';
import type { OrderStatus } from './order.schemas.js';
import { PickingRepository } from './picking.repository.js';

/**
 * The stock-moving steps of fulfilment, one per method, each in the caller's transaction with the rows
 * it changes locked: reserve stock for an order line (allocation), turn an allocation into a pick task
 * (release), confirm a pick. The operations endpoints (allocate with FEFO, release, confirm, ship) are
 * built on these; cancel undoes exactly what they did (see OrdersService.cancel).
 */
export class FulfilmentRepository {
  private readonly stock: StockRepository;
  private readonly picking: PickingRepository;

  constructor(private readonly db: Database) {
    this.stock = new StockRepository(db);
    this.picking = new PickingRepository(db);
  }

  /** Reserves qty of a stock row for an order line. The stock row's CHECK refuses more than is available. */
  async allocate(
    input: { tenantId: string; orderLineId: string; stockRowId: string; qty: number },
    transaction: Transaction,
  ): Promise<string> {
    await this.stock.apply([{ stockRowId: input.stockRowId, onHand: 0, allocated: input.qty }], transaction);
    const rows = await this.db.sequelize.query<{ id: string }>(
      `WITH line AS (UPDATE sales_order_lines SET qty_allocated = qty_allocated + $4 WHERE id = $2 RETURNING order_id)
       INSERT INTO allocations (tenant_id, order_id, order_line_id, stock_row_id, qty)
       SELECT $1, line.order_id, $2, $3, $4 FROM line RETURNING id`,
      { bind: [input.tenantId, input.orderLineId, input.stockRowId, input.qty], type: QueryTypes.SELECT, transaction },
    );
    return rows[0]!.id;
  }

  /** One open pick task for what an allocation still reserves, at its stock row's location and lot. */
  async createPickTask(allocationId: string, transaction: Transaction): Promise<string> {
    const rows = await this.db.sequelize.query<{ id: string }>(
      `INSERT INTO pick_tasks (tenant_id, order_id, order_line_id, allocation_id, stock_row_id, location_id, lot_no, qty)
       SELECT a.tenant_id, a.order_id, a.order_line_id, a.id, s.id, s.location_id, s.lot_no, a.qty
       FROM allocations a JOIN stock_rows s ON s.id = a.stock_row_id WHERE a.id = $1 AND a.qty > 0
       RETURNING id`,
      { bind: [allocationId], type: QueryTypes.SELECT, transaction },
    );
    return rows[0]!.id;
  }

  /**
   * Confirms an open task with what was picked (at most its qty), by the rule of PickingRepository.confirm:
   * that quantity leaves the row's on hand and allocated and the allocation, the line's picked quantity
   * grows, and a short pick leaves the difference reserved. Returns false when the task is not open.
   */
  async confirmPick(taskId: string, qtyPicked: number, transaction: Transaction): Promise<boolean> {
    const task = await this.picking.lockTask(taskId, transaction);
    if (task?.status !== 'open') return false;
    await this.picking.confirm(task, qtyPicked, transaction);
    return true;
  }

  /** Moves an order to a state (the operations decide when; this only writes it). */
  async setOrderStatus(orderId: string, status: OrderStatus, transaction: Transaction): Promise<void> {
    await this.db.sequelize.query('UPDATE sales_orders SET status = $2, updated_at = now() WHERE id = $1', {
      bind: [orderId, status],
      type: QueryTypes.UPDATE,
      transaction,
    });
  }
}
