import type { Transaction } from 'sequelize';
import type { Database } from '@wms/platform';
import { AppError, type ErrorDetail } from '@wms/platform';
import type { EventsService } from '@wms/events';
import { changeStock, type EntryOutcome, type WriteContext } from '../writes/index.js';
import { toPage, type ListPage, type ListQuery } from '@wms/platform';
import { DocumentCreation, documentInvalid, lineProblems, type DocumentRecipe } from '../documents/index.js';
import type { ItemRef, References } from '../master-data/index.js';
import { OrdersRepository, type InsertedOrder } from './orders.repository.js';
import type { OrderInput, OrderStatus } from './order.schemas.js';

/** Partner types an order may be for. */
const CUSTOMER_TYPES = ['customer', 'other'];

/** An order may be cancelled in any state before shipped (and only once). */
const NOT_CANCELLABLE: OrderStatus[] = ['shipped', 'cancelled'];

interface CheckedOrder {
  input: OrderInput;
  warehouseId: string;
  customerId: string;
  items: ItemRef[];
}

/**
 * Sales orders: creation (single and bulk through the ingest registry, by the document recipe), the order
 * inquiry and list, and cancel.
 */
export class OrdersService {
  private readonly repository: OrdersRepository;
  private readonly creation: DocumentCreation;
  private readonly recipe: DocumentRecipe<OrderInput, CheckedOrder, InsertedOrder>;

  constructor(
    private readonly db: Database,
    private readonly events: Pick<EventsService, 'append'>,
  ) {
    this.repository = new OrdersRepository(db);
    this.creation = new DocumentCreation(db);
    this.recipe = orderRecipe(this.repository);
  }

  /** Creates a batch of orders in the caller's transaction; every entry gets its own outcome. */
  createOrders(context: WriteContext, inputs: OrderInput[]): Promise<EntryOutcome[]> {
    return this.creation.create(this.recipe, context, inputs);
  }

  /**
   * The order inquiry: the order, its lines, its pick tasks and the summary. Another tenant's order is not
   * found. Inside `transaction`, the order as that transaction sees it.
   */
  async inquire(tenantId: string, orderNo: string, transaction?: Transaction): Promise<Record<string, unknown>> {
    return JSON.parse(await this.inquireJson(tenantId, orderNo, transaction)) as Record<string, unknown>;
  }

  /** The order inquiry's answer as JSON text, as PostgreSQL built it. */
  async inquireJson(tenantId: string, orderNo: string, transaction?: Transaction): Promise<string> {
    const document = await this.repository.findDocumentJson(tenantId, orderNo, transaction);
    if (document === null) throw AppError.notFound(`Order ${orderNo} not found`);
    return document;
  }

  async list(tenantId: string, query: ListQuery<OrderStatus>): Promise<ListPage<Record<string, unknown>>> {
    return toPage(await this.repository.list(tenantId, query), query.limit);
  }

  /**
   * Cancels an order, in the caller's transaction: the order row is locked first, then
   * every allocation's reservation is taken off its stock row and every picked quantity is put back on
   * hand at the row it was picked from (rows locked in id order), open pick tasks are cancelled, and the
   * `order.cancelled` event is appended (the events seam).
   */
  async cancel(context: WriteContext, orderNo: string): Promise<{ orderNo: string; status: 'cancelled' }> {
    const { tenantId, transaction } = context;
    const order = await this.repository.lock(tenantId, orderNo, transaction);
    if (!order) throw AppError.notFound(`Order ${orderNo} not found`);
    if (NOT_CANCELLABLE.includes(order.status)) {
      throw AppError.conflict('INVALID_STATE', `Order ${orderNo} is ${order.status} and cannot be cancelled`);
    }
    const held = await this.repository.heldStock(order.id, transaction);
    await changeStock(
      this.db,
      context,
      { cause: 'release', documentNo: order.orderNo },
      held.map((hold) =>
        hold.kind === 'allocated'
          ? { stockRowId: hold.stockRowId, onHand: 0, allocated: -hold.qty }
          : { stockRowId: hold.stockRowId, onHand: hold.qty, allocated: 0 },
      ),
    );
    await this.repository.markCancelled(order.id, transaction);
    await this.events.append(transaction, {
      tenantId,
      event: 'order.cancelled',
      data: { orderNo: order.orderNo, referenceNo: order.referenceNo, previousStatus: order.status },
    });
    return { orderNo: order.orderNo, status: 'cancelled' };
  }
}

/** Orders in the document recipe: customer, checks, header and line statements, the created order. */
function orderRecipe(repository: OrdersRepository): DocumentRecipe<OrderInput, CheckedOrder, InsertedOrder> {
  return {
    kind: 'Order',
    series: 'SO',
    partnerCode: (input) => input.customerCode,
    check: checkOrder,
    async insertHeaders(tenantId, documents, { transaction }) {
      const headers = documents.map(({ checked: order, number }) => ({
        orderNo: number,
        referenceNo: order.input.referenceNo,
        warehouseId: order.warehouseId,
        customerId: order.customerId,
        requiredDate: order.input.requiredDate ?? null,
        priority: order.input.priority,
        shipTo: order.input.shipTo ?? null,
      }));
      const rows = await repository.insertOrders(tenantId, headers, transaction);
      return new Map(rows.map((row) => [row.orderNo, row]));
    },
    insertLines: (documents, { transaction }) =>
      repository.insertLines(
        documents.flatMap(({ checked: order, row }) =>
          order.input.lines.map((line, n) => ({
            orderId: row.id,
            lineNo: line.lineNo,
            itemId: order.items[n]!.id,
            uomCode: line.uomCode,
            qtyOrdered: line.qtyOrdered,
          })),
        ),
        transaction,
      ),
    numbersByReference: (tenantId, referenceNos, { transaction }) =>
      repository.numbersByReference(tenantId, referenceNos, transaction),
    created: (order, row) => ({
      ok: true,
      created: true,
      data: { id: row.id, orderNo: row.orderNo, referenceNo: row.referenceNo },
      document: orderDocument(order, row),
    }),
  };
}

function checkOrder(input: OrderInput, refs: References): CheckedOrder {
  const warehouse = refs.warehouse(input.warehouseCode);
  const customer = refs.partner(input.customerCode);
  const items = input.lines.map((line) => refs.item(line.sku));
  const details: ErrorDetail[] = [];
  if (!CUSTOMER_TYPES.includes(customer.type)) {
    details.push({
      path: 'customerCode',
      message: `Partner code ${customer.code} is a ${customer.type}, not a customer`,
    });
  }
  input.lines.forEach((line, n) =>
    details.push(...lineProblems(`lines.${n}`, line.lineNo, items[n]!, line.uomCode, null)),
  );
  if (details.length) throw documentInvalid(details);
  return { input, warehouseId: warehouse.id, customerId: customer.id, items };
}

function orderDocument(order: CheckedOrder, row: InsertedOrder): Record<string, unknown> {
  const lines = order.input.lines.map((line, n) => ({
    lineNo: line.lineNo,
    sku: order.items[n]!.sku,
    uomCode: line.uomCode,
    qtyOrdered: line.qtyOrdered,
    qtyAllocated: 0,
    qtyPicked: 0,
    qtyShipped: 0,
  }));
  return {
    id: row.id,
    orderNo: row.orderNo,
    referenceNo: row.referenceNo,
    warehouseCode: order.input.warehouseCode,
    customerCode: order.input.customerCode,
    requiredDate: order.input.requiredDate ?? null,
    priority: order.input.priority,
    shipTo: order.input.shipTo ?? null,
    status: 'open',
    createdAt: row.createdAt,
    updatedAt: row.createdAt,
    cancelledAt: null,
    lines,
    pickTasks: [],
    summary: {
      totalOrdered: Number(lines.reduce((sum, line) => sum + line.qtyOrdered, 0).toFixed(4)),
      totalAllocated: 0,
      totalPicked: 0,
      totalShipped: 0,
    },
  };
}
