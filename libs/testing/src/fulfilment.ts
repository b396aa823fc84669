import { QueryTypes, type Transaction } from 'sequelize';
import { changeStock, type OrderStatus } from '@wms/warehouse';
import type { TestContext } from './test-context.js';

/**
 * Fulfilment states arranged straight in the database, for the specs of what undoes them (cancel): the
 * operations endpoints choose their stock rows by FEFO, these take the row the spec names. Each runs in the
 * caller's transaction; a pick is confirmed through the picking service itself.
 */
type Arranging = Pick<TestContext, 'runtime'>;

/** Reserves qty of a stock row for an order line; answers the allocation's id. */
export async function reserveStock(
  ctx: Arranging,
  input: { tenantId: string; orderLineId: string; stockRowId: string; qty: number },
  transaction: Transaction,
): Promise<string> {
  await changeStock(
    ctx.runtime.db,
    { tenantId: input.tenantId, transaction },
    { cause: 'allocation', documentNo: null },
    [{ stockRowId: input.stockRowId, onHand: 0, allocated: input.qty }],
  );
  const rows = await ctx.runtime.db.sequelize.query<{ id: string }>(
    `WITH line AS (UPDATE sales_order_lines SET qty_allocated = qty_allocated + $4 WHERE id = $2 RETURNING order_id)
     INSERT INTO allocations (tenant_id, order_id, order_line_id, stock_row_id, qty)
     SELECT $1, line.order_id, $2, $3, $4 FROM line RETURNING id`,
    { bind: [input.tenantId, input.orderLineId, input.stockRowId, input.qty], type: QueryTypes.SELECT, transaction },
  );
  return rows[0]!.id;
}

/** One open pick task for what an allocation reserves, at its stock row's location and lot; answers its id. */
export async function createPickTask(ctx: Arranging, allocationId: string, transaction: Transaction): Promise<string> {
  const rows = await ctx.runtime.db.sequelize.query<{ id: string }>(
    `INSERT INTO pick_tasks (tenant_id, order_id, order_line_id, allocation_id, stock_row_id, location_id, lot_no, qty)
     SELECT a.tenant_id, a.order_id, a.order_line_id, a.id, s.id, s.location_id, s.lot_no, a.qty
     FROM allocations a JOIN stock_rows s ON s.id = a.stock_row_id WHERE a.id = $1 AND a.qty > 0
     RETURNING id`,
    { bind: [allocationId], type: QueryTypes.SELECT, transaction },
  );
  return rows[0]!.id;
}

/** Moves an order to a state. */
export async function setOrderStatus(
  ctx: Arranging,
  orderId: string,
  status: OrderStatus,
  transaction: Transaction,
): Promise<void> {
  await ctx.runtime.db.sequelize.query('UPDATE sales_orders SET status = $2, updated_at = now() WHERE id = $1', {
    bind: [orderId, status],
    type: QueryTypes.UPDATE,
    transaction,
  });
}
