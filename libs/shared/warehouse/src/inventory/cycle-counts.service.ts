import { Joi, validate } from '@wms/platform';
import type { Database } from '@wms/platform';
import type { EventsService } from '@wms/events';
import type { WriteContext } from '../writes/index.js';
import { adjustedData, targetView } from './adjustments.service.js';
import { StockKeyRepository } from './stock-key.repository.js';
import { resolveStockTarget, stockTargetFields, type StockTargetInput } from './stock-target.js';

export interface CycleCountInput extends StockTargetInput {
  countedQty: number;
}

export const cycleCountSchema = Joi.object<CycleCountInput>({
  ...stockTargetFields,
  countedQty: Joi.number()
    .min(0)
    .max(1e12)
    .custom((value: number, helpers) => (Number(value.toFixed(4)) === value ? value : helpers.error('number.scale')))
    .required()
    .messages({ 'number.scale': '{{#label}} must have at most 4 decimals' }),
}).label('CycleCount');

export interface CycleCountView {
  id: string;
  warehouseCode: string;
  locationCode: string;
  sku: string;
  lotNo: string | null;
  systemQty: number;
  countedQty: number;
  variance: number;
  /** What the count changed on hand by. */
  qtyAdjusted: number;
  /** What on hand could not be brought down by, because allocations still reserve it. */
  unresolvedQty: number;
  qtyOnHand: number;
  createdAt: string;
}

const COUNT_REASON = 'cycle count';

/**
 * Cycle counts: the count of one stock key is recorded with the system quantity
 * it was compared with (under the row's lock, so no change slips in between). A difference appends
 * `cyclecount.variance` (variance = countedQty − systemQty) and adjusts on hand to the count, through the
 * adjustment record and `stock.adjusted` (reason "cycle count"). On hand never goes below allocated: when
 * fewer are counted than orders reserve, on hand comes down to the allocated quantity and the rest is
 * recorded as `unresolvedQty` for a supervisor (docs/adr/0056-allocation-fefo.md).
 */
export class CycleCountsService {
  private readonly rows: StockKeyRepository;

  constructor(
    private readonly db: Database,
    private readonly events: Pick<EventsService, 'append'>,
  ) {
    this.rows = new StockKeyRepository(db);
  }

  async record(
    { tenantId, transaction }: WriteContext,
    body: unknown,
    actorId: string | null = null,
  ): Promise<CycleCountView> {
    const input = validate(cycleCountSchema, body);
    const target = await resolveStockTarget(this.db, tenantId, input, transaction);
    const existing = await this.rows.lock(target.key, transaction);
    const systemQty = existing?.qtyOnHand ?? 0;
    const allocated = existing?.qtyAllocated ?? 0;
    const variance = round(input.countedQty - systemQty);
    const qtyAdjusted = round(Math.max(input.countedQty, allocated) - systemQty);
    const unresolvedQty = round(Math.max(0, allocated - input.countedQty));
    const row =
      qtyAdjusted > 0 && !existing ? await this.rows.lockOrCreate(tenantId, target.key, transaction) : existing;

    const count = await this.rows.recordCount(
      {
        tenantId,
        key: target.key,
        stockRowId: row?.id ?? null,
        systemQty,
        countedQty: input.countedQty,
        qtyAdjusted,
        unresolvedQty,
        actorId,
      },
      transaction,
    );
    let qtyOnHand = systemQty;
    if (qtyAdjusted !== 0) {
      qtyOnHand = await this.rows.addOnHand(row!.id, qtyAdjusted, transaction);
      await this.rows.recordAdjustment(
        {
          tenantId,
          stockRowId: row!.id,
          qtyDelta: qtyAdjusted,
          qtyOnHand,
          reason: COUNT_REASON,
          cycleCountId: count.id,
          actorId,
        },
        transaction,
      );
      await this.events.append(transaction, {
        tenantId,
        event: 'stock.adjusted',
        data: adjustedData(target, qtyAdjusted, qtyOnHand, COUNT_REASON),
      });
    }
    if (variance !== 0) {
      await this.events.append(transaction, {
        tenantId,
        event: 'cyclecount.variance',
        data: { ...targetView(target), systemQty, countedQty: input.countedQty, variance },
      });
    }
    return {
      id: count.id,
      ...targetView(target),
      systemQty,
      countedQty: input.countedQty,
      variance,
      qtyAdjusted,
      unresolvedQty,
      qtyOnHand,
      createdAt: count.createdAt,
    };
  }
}

function round(qty: number): number {
  return Number(qty.toFixed(4));
}
