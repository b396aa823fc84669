import type { Transaction } from 'sequelize';
import { AppError, validate, type Database } from '@wms/platform';
import type { EventsService } from '@wms/events';
import { changeStock, openStockRows, stockKey, type WriteContext } from '../writes/index.js';
import { ReferenceRepository } from '../master-data/index.js';
import { ReturnsRepository, type LockedReturn } from './returns.repository.js';
import { planReceipt, type PlannedLine } from './receipt-plan.js';
import {
  QUARANTINE_LOCATION,
  RESTOCK_LOCATION,
  returnReceiptSchema,
  type ReceiptInput,
  type ReturnStatus,
} from './return.schemas.js';

/** The states a return can still be received in (and cancelled in: `open` only; closed in: the others). */
const RECEIVABLE: ReturnStatus[] = ['open', 'partially_received'];

/**
 * Receipts of returned goods by staff, and a return's cancel and close, all in the caller's transaction.
 * The return row is locked first, so receipts of one return queue behind each other and each sees what the
 * previous one received. Restocked and quarantined lines go on hand under the stock rows' locks; scrapped
 * lines are recorded and write no stock. `return.received` is appended for each receipt and
 * `return.completed` once, when the return is received in full or closed short.
 */
export class ReturnReceiptsService {
  private readonly returns: ReturnsRepository;
  private readonly references: ReferenceRepository;

  constructor(
    private readonly db: Database,
    private readonly events: Pick<EventsService, 'append'>,
  ) {
    this.returns = new ReturnsRepository(db);
    this.references = new ReferenceRepository(db);
  }

  async receive(
    context: WriteContext,
    rmaNo: string,
    body: unknown,
    actorId: string | null = null,
  ): Promise<Record<string, unknown>> {
    const input = validate<ReceiptInput>(returnReceiptSchema, body);
    const { tenantId, transaction } = context;
    const locked = await this.lockReceivable(tenantId, rmaNo, transaction);
    const refs = await this.references.resolve(tenantId, { skus: input.lines.map((line) => line.sku) }, transaction);
    const items = input.lines.map((line) => refs.item(line.sku));
    const locations = await this.locationsOf(tenantId, locked, input, transaction);
    const lines = planReceipt(locked, input.lines, items, locations);
    const stockRows = await this.putOnHand(context, locked, lines);
    const { receiptId, status } = await this.returns.recordReceipt(
      { tenantId, returnId: locked.id, actorId },
      lines.map((line) => ({
        lineNo: line.lineNo,
        returnLineId: line.returnLine.id,
        qty: line.qty,
        lotNo: line.lotNo,
        disposition: line.disposition,
        locationId: line.location?.id ?? null,
        stockRowId: line.location ? stockRows.get(stockKeyOf(locked.warehouseId, line))! : null,
      })),
      transaction,
    );
    await this.events.append(transaction, {
      tenantId,
      event: 'return.received',
      data: {
        rmaNo: locked.rmaNo,
        orderNo: locked.orderNo,
        warehouseCode: locked.warehouseCode,
        receiptId,
        status,
        lines: lines.map((line) => ({
          sku: line.returnLine.sku,
          lotNo: line.lotNo || null,
          qty: line.qty,
          disposition: line.disposition,
          locationCode: line.location?.code ?? null,
        })),
      },
    });
    if (status === 'received') await this.appendCompleted(context, locked.rmaNo, 'received');
    return (await this.returns.findDocument(tenantId, locked.rmaNo, transaction))!;
  }

  /**
   * Receives every line still open, in full, restocked at RECEIVING (what a sandbox simulation of
   * `return.received` does). A return with nothing left to receive is 409 NOTHING_TO_RECEIVE.
   */
  async receiveOpenLines(context: WriteContext, rmaNo: string): Promise<Record<string, unknown>> {
    const locked = await this.returns.lock(context.tenantId, rmaNo, context.transaction);
    if (!locked) throw AppError.notFound(`Return ${rmaNo} not found`);
    const open = locked.lines.filter((line) => line.receivedQty < line.qty);
    if (!RECEIVABLE.includes(locked.status) || !open.length)
      throw AppError.conflict('NOTHING_TO_RECEIVE', `Return ${rmaNo} has nothing left to receive`);
    return this.receive(context, rmaNo, {
      lines: open.map((line) => ({
        sku: line.sku,
        qty: Number((line.qty - line.receivedQty).toFixed(4)),
        ...(line.lotNo ? { lotNo: line.lotNo } : {}),
        disposition: 'restock',
        locationCode: RESTOCK_LOCATION,
      })),
    });
  }

  /** Cancels a return nothing was received of yet; its quantities no longer count against the order. */
  async cancel(context: WriteContext, rmaNo: string): Promise<Record<string, unknown>> {
    const locked = await this.returns.lock(context.tenantId, rmaNo, context.transaction);
    if (!locked) throw AppError.notFound(`Return ${rmaNo} not found`);
    if (locked.status !== 'open') {
      throw AppError.conflict(
        'INVALID_STATE',
        `Return ${rmaNo} is ${locked.status}; only an open return can be cancelled`,
      );
    }
    await this.returns.finish(locked.id, 'cancelled', context.transaction);
    return (await this.returns.findDocument(context.tenantId, rmaNo, context.transaction))!;
  }

  /**
   * Closes a return: one received in full, or one partially received whose rest will not come (then
   * `return.completed` is sent now, and only what was received keeps counting against the order).
   */
  async close(context: WriteContext, rmaNo: string): Promise<Record<string, unknown>> {
    const locked = await this.returns.lock(context.tenantId, rmaNo, context.transaction);
    if (!locked) throw AppError.notFound(`Return ${rmaNo} not found`);
    if (locked.status !== 'partially_received' && locked.status !== 'received') {
      throw AppError.conflict(
        'INVALID_STATE',
        `Return ${rmaNo} is ${locked.status}; only a received or partially received return can be closed`,
      );
    }
    await this.returns.finish(locked.id, 'closed', context.transaction);
    if (locked.status === 'partially_received') await this.appendCompleted(context, rmaNo, 'closed');
    return (await this.returns.findDocument(context.tenantId, rmaNo, context.transaction))!;
  }

  private async lockReceivable(tenantId: string, rmaNo: string, transaction: Transaction): Promise<LockedReturn> {
    const locked = await this.returns.lock(tenantId, rmaNo, transaction);
    if (!locked) throw AppError.notFound(`Return ${rmaNo} not found`);
    if (!RECEIVABLE.includes(locked.status)) {
      throw AppError.conflict('INVALID_STATE', `Return ${rmaNo} is ${locked.status} and cannot be received against`);
    }
    return locked;
  }

  /**
   * The locations the receipt names or defaults to, by code, with their type. The warehouse's default
   * quarantine location is created on its first use.
   */
  private async locationsOf(
    tenantId: string,
    locked: LockedReturn,
    input: ReceiptInput,
    transaction: Transaction,
  ): Promise<Map<string, { id: string; type: string }>> {
    const codes = new Set<string>();
    for (const line of input.lines) {
      if (line.disposition === 'restock') codes.add(line.locationCode ?? RESTOCK_LOCATION);
      if (line.disposition === 'quarantine') codes.add(line.locationCode ?? QUARANTINE_LOCATION);
    }
    if (input.lines.some((line) => line.disposition === 'quarantine' && !line.locationCode)) {
      await this.returns.ensureQuarantineLocation(tenantId, locked.warehouseId, QUARANTINE_LOCATION, transaction);
    }
    return codes.size ? this.returns.locations(locked.warehouseId, [...codes], transaction) : new Map();
  }

  /**
   * Puts restocked and quarantined lines on hand through the write kernel, so each change enters the inventory
   * ledger with the cause `return` and the RMA as its document; answers the stock row of each key.
   */
  private async putOnHand(
    context: WriteContext,
    locked: LockedReturn,
    lines: PlannedLine[],
  ): Promise<Map<string, string>> {
    const placed = lines.filter((line) => line.location);
    if (!placed.length) return new Map();
    const stockRows = await openStockRows(
      this.db,
      context,
      placed.map((line) => ({
        warehouseId: locked.warehouseId,
        locationId: line.location!.id,
        itemId: line.returnLine.itemId,
        lotNo: line.lotNo,
      })),
    );
    await changeStock(
      this.db,
      context,
      { cause: 'return', documentNo: locked.rmaNo },
      placed.map((line) => ({
        stockRowId: stockRows.get(stockKeyOf(locked.warehouseId, line))!,
        onHand: line.qty,
        allocated: 0,
      })),
    );
    return stockRows;
  }

  private async appendCompleted(
    { tenantId, transaction }: WriteContext,
    rmaNo: string,
    status: 'received' | 'closed',
  ): Promise<void> {
    const document = (await this.returns.findDocument(tenantId, rmaNo, transaction)) as {
      orderNo: string;
      warehouseCode: string;
      lines: { lineNo: number; sku: string; lotNo: string | null; qty: number; receivedQty: number }[];
    };
    await this.events.append(transaction, {
      tenantId,
      event: 'return.completed',
      data: {
        rmaNo,
        orderNo: document.orderNo,
        warehouseCode: document.warehouseCode,
        status,
        lines: document.lines.map(({ lineNo, sku, lotNo, qty, receivedQty }) => ({
          lineNo,
          sku,
          lotNo,
          qty,
          receivedQty,
        })),
      },
    });
  }
}

function stockKeyOf(warehouseId: string, line: PlannedLine): string {
  return stockKey({ warehouseId, locationId: line.location!.id, itemId: line.returnLine.itemId, lotNo: line.lotNo });
}
