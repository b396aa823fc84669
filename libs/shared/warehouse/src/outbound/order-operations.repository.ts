import { QueryTypes, type Transaction } from 'sequelize';
import type { Database } from '@wms/platform';
import { AppError } from '@wms/platform';
import type { OrderStatus } from './order.schemas.js';

/** An order row locked for an operation, with the warehouse its stock comes from. */
export interface OperationOrder {
  id: string;
  orderNo: string;
  referenceNo: string;
  status: OrderStatus;
  warehouseId: string;
  warehouseCode: string;
}

/**
 * Every operation that changes an order starts here: the order row is locked FOR UPDATE (only the order
 * row: `OF o`), so operations on one order (allocate, release, confirm, ship, cancel) run one after
 * another and each sees the state the previous one left. Stock rows are locked after it, in id order.
 */
export class OrderOperationsRepository {
  constructor(private readonly db: Database) {}

  async lockByNumber(tenantId: string, orderNo: string, transaction: Transaction): Promise<OperationOrder> {
    return this.one(
      'o.tenant_id = $1 AND o.order_no = $2',
      [tenantId, orderNo],
      transaction,
      `Order ${orderNo} not found`,
    );
  }

  async lockById(tenantId: string, orderId: string, transaction: Transaction): Promise<OperationOrder> {
    return this.one('o.tenant_id = $1 AND o.id = $2', [tenantId, orderId], transaction, 'Order not found');
  }

  /** Moves an order to a state (the services decide when; this only writes it). */
  async setStatus(orderId: string, status: OrderStatus, transaction: Transaction): Promise<void> {
    await this.db.sequelize.query('UPDATE sales_orders SET status = $2, updated_at = now() WHERE id = $1', {
      bind: [orderId, status],
      type: QueryTypes.UPDATE,
      transaction,
    });
  }

  private async one(
    where: string,
    bind: unknown[],
    transaction: Transaction,
    missing: string,
  ): Promise<OperationOrder> {
    const rows = await this.db.sequelize.query<OperationOrder>(
      `SELECT o.id, o.order_no AS "orderNo", o.reference_no AS "referenceNo", o.status, o.warehouse_id AS "warehouseId", w.code AS "warehouseCode"
       FROM sales_orders o JOIN warehouses w ON w.id = o.warehouse_id
       WHERE ${where} FOR UPDATE OF o`,
      { bind, type: QueryTypes.SELECT, transaction },
    );
    if (!rows[0]) throw AppError.notFound(missing);
    return rows[0];
  }
}

/** An operation the order's state does not allow is 409 INVALID_STATE naming the state. */
export function requireState(
  order: Pick<OperationOrder, 'orderNo' | 'status'>,
  allowed: readonly OrderStatus[],
  action: string,
  hint = '',
): void {
  if (allowed.includes(order.status)) return;
  throw AppError.conflict('INVALID_STATE', `Order ${order.orderNo} is ${order.status} and cannot be ${action}${hint}`);
}
