import type { Database } from '@wms/platform';
import type { EventsService } from '@wms/events';
import { changeStock, type WriteContext } from '../writes/index.js';
import { AllocationRepository, type CandidateRow, type LineNeed, type Reservation } from './allocation.repository.js';
import { OrderOperationsRepository, requireState } from './order-operations.repository.js';
import type { OrderStatus } from './order.schemas.js';

/** Allocation tops up open (partly allocated) and allocated orders only; after release the plan is fixed. */
const ALLOCATABLE: OrderStatus[] = ['open', 'allocated'];

export interface AllocationResult {
  orderNo: string;
  status: OrderStatus;
  /** What this call reserved (0 when stock allowed nothing more). */
  qtyAllocated: number;
}

/**
 * Allocation: reserves what stock allows for every line still short, FEFO.
 * Lock order: the order row, then the candidate stock rows in id order; availability is read after the
 * locks, so concurrent allocations of many orders over scarce stock never reserve more than there is
 * (and the stock rows' CHECK would refuse it if they tried). Partly allocated orders stay `open`; fully
 * allocated ones become `allocated`; `order.allocated` is appended when anything was reserved.
 */
export class AllocationService {
  private readonly orders: OrderOperationsRepository;
  private readonly repository: AllocationRepository;

  constructor(
    private readonly db: Database,
    private readonly events: Pick<EventsService, 'append'>,
  ) {
    this.orders = new OrderOperationsRepository(db);
    this.repository = new AllocationRepository(db);
  }

  async allocate(context: WriteContext, orderNo: string): Promise<AllocationResult> {
    const { tenantId, transaction } = context;
    const order = await this.orders.lockByNumber(tenantId, orderNo, transaction);
    requireState(order, ALLOCATABLE, 'allocated');
    const lines = await this.repository.linesInNeed(order.id, transaction);
    if (!lines.length) return { orderNo: order.orderNo, status: order.status, qtyAllocated: 0 };

    const candidates = await this.repository.lockCandidates(
      order.warehouseId,
      [...new Set(lines.map((line) => line.itemId))],
      transaction,
    );
    const reservations = planFefo(lines, candidates);
    if (!reservations.length) return { orderNo: order.orderNo, status: order.status, qtyAllocated: 0 };

    await changeStock(
      this.db,
      context,
      { cause: 'allocation', documentNo: order.orderNo },
      reservations.map((r) => ({ stockRowId: r.stockRowId, onHand: 0, allocated: r.qty })),
    );
    await this.repository.reserve(tenantId, order.id, reservations, transaction);
    const allocated = await this.repository.allocatedLines(order.id, transaction);
    const status: OrderStatus = allocated.every((line) => line.qtyAllocated >= line.qtyOrdered) ? 'allocated' : 'open';
    await this.orders.setStatus(order.id, status, transaction);
    await this.events.append(transaction, {
      tenantId,
      event: 'order.allocated',
      data: {
        orderNo: order.orderNo,
        referenceNo: order.referenceNo,
        warehouseCode: order.warehouseCode,
        lines: allocated,
      },
    });
    return { orderNo: order.orderNo, status, qtyAllocated: round(reservations.reduce((sum, r) => sum + r.qty, 0)) };
  }
}

/**
 * Walks the lines in line order and, for each, the rows of its item in FEFO order, taking what each row
 * still has available (two lines of one item share the rows). Quantities keep 4 decimals.
 */
export function planFefo(lines: LineNeed[], candidates: CandidateRow[]): Reservation[] {
  const available = new Map(candidates.map((row) => [row.id, row.available]));
  const reservations: Reservation[] = [];
  for (const line of lines) {
    let need = line.need;
    for (const row of candidates) {
      if (need <= 0) break;
      if (row.itemId !== line.itemId) continue;
      const qty = round(Math.min(need, available.get(row.id) ?? 0));
      if (qty <= 0) continue;
      reservations.push({ lineId: line.id, stockRowId: row.id, qty });
      available.set(row.id, round(available.get(row.id)! - qty));
      need = round(need - qty);
    }
  }
  return reservations;
}

/** Quantities are numeric(18,4): keep float arithmetic on 4 decimals. */
export function round(qty: number): number {
  return Number(qty.toFixed(4));
}
