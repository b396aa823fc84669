import { randomUUID } from 'node:crypto';
import { Joi, validate } from '@wms/platform';
import type { Database } from '@wms/platform';
import { AppError } from '@wms/platform';
import type { EventsService } from '@wms/events';
import { changeStock, type WriteContext } from '../writes/index.js';
import { STOCK_QTY_LIMIT } from './fields.js';
import { StockKeyRepository, type LockedStockRow } from './stock-key.repository.js';
import { resolveStockTarget, stockTargetFields, type StockTarget, type StockTargetInput } from './stock-target.js';

export interface AdjustmentInput extends StockTargetInput {
  qtyDelta: number;
  reason: string;
}

export const adjustmentSchema = Joi.object<AdjustmentInput>({
  ...stockTargetFields,
  qtyDelta: Joi.number()
    .invalid(0)
    .min(-1e12)
    .max(1e12)
    .custom((value: number, helpers) => (Number(value.toFixed(4)) === value ? value : helpers.error('number.scale')))
    .required()
    .messages({ 'any.invalid': '{{#label}} must not be 0', 'number.scale': '{{#label}} must have at most 4 decimals' })
    .description('added to on hand; negative takes stock off'),
  reason: Joi.string().trim().min(1).max(500).required(),
}).label('StockAdjustment');

export interface AdjustmentView {
  id: string;
  warehouseCode: string;
  locationCode: string;
  sku: string;
  lotNo: string | null;
  qtyDelta: number;
  qtyOnHand: number;
  qtyAllocated: number;
  reason: string;
  createdAt: string;
}

/**
 * Stock adjustments: on hand changes by qtyDelta at one stock key, under the
 * row's lock; on hand may never fall below what is allocated (409 BELOW_ALLOCATED: the stock is promised
 * to orders, which must be cancelled or shipped first). A positive delta creates the row when the key
 * has none. The change is recorded and `stock.adjusted` appended in the same transaction.
 */
export class AdjustmentsService {
  private readonly rows: StockKeyRepository;

  constructor(
    private readonly db: Database,
    private readonly events: Pick<EventsService, 'append'>,
  ) {
    this.rows = new StockKeyRepository(db);
  }

  async adjust(context: WriteContext, body: unknown, actorId: string | null = null): Promise<AdjustmentView> {
    const { tenantId, transaction } = context;
    const input = validate(adjustmentSchema, body);
    const target = await resolveStockTarget(this.db, tenantId, input, transaction);
    const row =
      input.qtyDelta > 0
        ? await this.rows.lockOrCreate(tenantId, target.key, transaction)
        : await this.rows.lock(target.key, transaction);
    refuseBelowAllocated(target, row, input.qtyDelta);
    refuseBeyondColumn(row, input.qtyDelta);
    const id = randomUUID();
    const after = await changeStock(this.db, context, { cause: 'adjustment', documentNo: id }, [
      { stockRowId: row!.id, onHand: input.qtyDelta, allocated: 0 },
    ]);
    const qtyOnHand = after.get(row!.id)!.qtyOnHand;
    const record = await this.rows.recordAdjustment(
      {
        id,
        tenantId,
        stockRowId: row!.id,
        qtyDelta: input.qtyDelta,
        qtyOnHand,
        reason: input.reason,
        cycleCountId: null,
        actorId,
      },
      transaction,
    );
    await this.events.append(transaction, {
      tenantId,
      event: 'stock.adjusted',
      data: adjustedData(target, input.qtyDelta, qtyOnHand, input.reason),
    });
    return {
      id: record.id,
      ...targetView(target),
      qtyDelta: record.qtyDelta,
      qtyOnHand,
      qtyAllocated: row!.qtyAllocated,
      reason: record.reason,
      createdAt: record.createdAt,
    };
  }
}

function refuseBelowAllocated(target: StockTarget, row: LockedStockRow | null, qtyDelta: number): void {
  const onHand = row?.qtyOnHand ?? 0;
  const allocated = row?.qtyAllocated ?? 0;
  if (Number((onHand + qtyDelta).toFixed(4)) >= allocated) return;
  throw AppError.conflict(
    'BELOW_ALLOCATED',
    `Stock of item SKU ${target.sku} at ${target.locationCode}${target.lotNo ? ` lot ${target.lotNo}` : ''} has ${onHand} on hand and ${allocated} allocated; ` +
      `an adjustment of ${qtyDelta} would leave on hand below allocated`,
  );
}

/** On hand is numeric(18,4): a delta that would carry it past what the column holds is bad input, not a crash. */
function refuseBeyondColumn(row: LockedStockRow | null, qtyDelta: number): void {
  const onHand = row?.qtyOnHand ?? 0;
  if (onHand + qtyDelta < STOCK_QTY_LIMIT) return;
  throw AppError.validation('Request validation failed', [
    {
      path: 'qtyDelta',
      message: `"qtyDelta" would take on hand from ${onHand} to ${onHand + qtyDelta}; a stock row holds less than ${STOCK_QTY_LIMIT}`,
    },
  ]);
}

export function targetView(target: StockTarget) {
  return {
    warehouseCode: target.warehouseCode,
    locationCode: target.locationCode,
    sku: target.sku,
    lotNo: target.lotNo,
  };
}

export function adjustedData(target: StockTarget, qtyDelta: number, qtyOnHand: number, reason: string) {
  return { ...targetView(target), qtyDelta, qtyOnHand, reason };
}
