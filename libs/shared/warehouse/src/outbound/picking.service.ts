import { Joi, isUuid, validate } from '@wms/platform';
import type { Database } from '@wms/platform';
import { AppError } from '@wms/platform';
import type { EventsService } from '@wms/events';
import { changeStock, type WriteContext } from '../writes/index.js';
import { quantity } from '../inventory/index.js';
import { OrderOperationsRepository, requireState } from './order-operations.repository.js';
import { PickingRepository, type PickTaskView } from './picking.repository.js';
import type { OrderStatus } from './order.schemas.js';

export interface ConfirmPickInput {
  qtyPicked?: number;
}

export const confirmPickSchema = Joi.object<ConfirmPickInput>({
  qtyPicked: quantity().description('what was picked; at most the task qty; defaults to the task qty'),
}).label('ConfirmPick');

/** The confirm answer: the task as the order inquiry shows it, and the order's state after it. */
export type ConfirmedPick = PickTaskView & { orderStatus: OrderStatus };

/**
 * Release and picking. Release needs a fully allocated order (a partly allocated,
 * `open` one is refused: docs/adr/0056-allocation-fefo.md) and makes one pick task per
 * allocation. Confirming a task moves what was picked off its stock row onto the order line; the last
 * open task confirmed makes the order `picked`.
 */
export class PickingService {
  private readonly orders: OrderOperationsRepository;
  private readonly repository: PickingRepository;

  constructor(
    private readonly db: Database,
    private readonly events: Pick<EventsService, 'append'>,
  ) {
    this.orders = new OrderOperationsRepository(db);
    this.repository = new PickingRepository(db);
  }

  async release(
    { tenantId, transaction }: WriteContext,
    orderNo: string,
  ): Promise<{ orderNo: string; pickTasks: number }> {
    const order = await this.orders.lockByNumber(tenantId, orderNo, transaction);
    requireState(order, ['allocated'], 'released', order.status === 'open' ? ' until it is fully allocated' : '');
    const pickTasks = await this.repository.createTasks(order.id, transaction);
    await this.orders.setStatus(order.id, 'released', transaction);
    await this.events.append(transaction, {
      tenantId,
      event: 'order.released',
      data: { orderNo: order.orderNo, referenceNo: order.referenceNo, warehouseCode: order.warehouseCode, pickTasks },
    });
    return { orderNo: order.orderNo, pickTasks: pickTasks.length };
  }

  /** Confirms every open task of a released order in full, as a picker would; the order ends `picked`. */
  async pickAll(context: WriteContext, orderNo: string): Promise<ConfirmedPick[]> {
    const order = await this.orders.lockByNumber(context.tenantId, orderNo, context.transaction);
    requireState(order, ['released'], 'picked');
    const confirmed: ConfirmedPick[] = [];
    for (const taskId of await this.repository.openTaskIds(order.id, context.transaction)) {
      confirmed.push(await this.confirm(context, taskId, {}));
    }
    return confirmed;
  }

  async confirm(context: WriteContext, taskId: string, body: unknown): Promise<ConfirmedPick> {
    const { tenantId, transaction } = context;
    const input = validate(confirmPickSchema, body ?? {});
    const orderId = isUuid(taskId) ? await this.repository.orderOf(tenantId, taskId, transaction) : null;
    if (!orderId) throw AppError.notFound(`Pick task ${taskId} not found`);
    // The order first, then the task: the order of locks every operation on an order keeps.
    const order = await this.orders.lockById(tenantId, orderId, transaction);
    const task = (await this.repository.lockTask(taskId, transaction))!;
    if (task.status !== 'open')
      throw AppError.conflict('INVALID_STATE', `Pick task ${taskId} is ${task.status} and cannot be confirmed`);
    const qtyPicked = input.qtyPicked ?? task.qty;
    if (qtyPicked > task.qty) {
      throw AppError.validation(`qtyPicked ${qtyPicked} is more than the task's qty ${task.qty}`, [
        { path: 'qtyPicked', message: `qtyPicked must be at most the task's qty ${task.qty}` },
      ]);
    }
    await changeStock(this.db, context, { cause: 'pick', documentNo: order.orderNo }, [
      { stockRowId: task.stockRowId, onHand: -qtyPicked, allocated: -qtyPicked },
    ]);
    await this.repository.confirm(task, qtyPicked, transaction);
    let orderStatus = order.status;
    if ((await this.repository.openTaskCount(order.id, transaction)) === 0) {
      orderStatus = 'picked';
      await this.orders.setStatus(order.id, orderStatus, transaction);
    }
    return { ...(await this.repository.view(taskId, transaction)), orderStatus };
  }
}
