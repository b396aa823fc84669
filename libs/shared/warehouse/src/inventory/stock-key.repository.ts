import { QueryTypes, type Transaction } from 'sequelize';
import type { Database } from '@wms/platform';
import { isoSql } from './fields.js';

/** One stock key: (warehouse, location, item, lot); lot '' for an item without lots. */
export interface StockKey {
  warehouseId: string;
  locationId: string;
  itemId: string;
  lotNo: string;
}

export interface LockedStockRow {
  id: string;
  qtyOnHand: number;
  qtyAllocated: number;
}

export interface AdjustmentRecord {
  id: string;
  qtyDelta: number;
  qtyOnHand: number;
  reason: string;
  createdAt: string;
}

export interface CountRecord {
  id: string;
  systemQty: number;
  countedQty: number;
  qtyAdjusted: number;
  unresolvedQty: number;
  createdAt: string;
}

/**
 * Stock changes made by hand (adjustments, cycle counts): the row of one key, locked, and the record of
 * what was done to it. Adjustments and counts touch one row each, so one lock is all they take.
 */
export class StockKeyRepository {
  constructor(private readonly db: Database) {}

  async lock(key: StockKey, transaction: Transaction): Promise<LockedStockRow | null> {
    const rows = await this.db.sequelize.query<LockedStockRow>(
      `SELECT id, qty_on_hand::float8 AS "qtyOnHand", qty_allocated::float8 AS "qtyAllocated" FROM stock_rows
       WHERE warehouse_id = $1 AND location_id = $2 AND item_id = $3 AND lot_no = $4 FOR UPDATE`,
      { bind: [key.warehouseId, key.locationId, key.itemId, key.lotNo], type: QueryTypes.SELECT, transaction },
    );
    return rows[0] ?? null;
  }

  /** The key's row, created empty when missing (a concurrent creator wins harmlessly), then locked. */
  async lockOrCreate(tenantId: string, key: StockKey, transaction: Transaction): Promise<LockedStockRow> {
    await this.db.sequelize.query(
      `INSERT INTO stock_rows (tenant_id, warehouse_id, location_id, item_id, lot_no) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (warehouse_id, location_id, item_id, lot_no) DO NOTHING`,
      {
        bind: [tenantId, key.warehouseId, key.locationId, key.itemId, key.lotNo],
        type: QueryTypes.INSERT,
        transaction,
      },
    );
    return (await this.lock(key, transaction))!;
  }

  async recordAdjustment(
    input: {
      /** Chosen by the caller, so the ledger entry written before the record can name it. */
      id: string;
      tenantId: string;
      stockRowId: string;
      qtyDelta: number;
      qtyOnHand: number;
      reason: string;
      cycleCountId: string | null;
      actorId: string | null;
    },
    transaction: Transaction,
  ): Promise<AdjustmentRecord> {
    const rows = await this.db.sequelize.query<AdjustmentRecord>(
      `INSERT INTO stock_adjustments (id, tenant_id, stock_row_id, qty_delta, qty_on_hand, reason, cycle_count_id, adjusted_by)
       VALUES ($8, $1, $2, $3, $4, $5, $6, $7)
       RETURNING id, qty_delta::float8 AS "qtyDelta", qty_on_hand::float8 AS "qtyOnHand", reason, ${isoSql('created_at')} AS "createdAt"`,
      {
        bind: [
          input.tenantId,
          input.stockRowId,
          input.qtyDelta,
          input.qtyOnHand,
          input.reason,
          input.cycleCountId,
          input.actorId,
          input.id,
        ],
        type: QueryTypes.SELECT,
        transaction,
      },
    );
    return rows[0]!;
  }

  async recordCount(
    input: {
      tenantId: string;
      key: StockKey;
      stockRowId: string | null;
      systemQty: number;
      countedQty: number;
      qtyAdjusted: number;
      unresolvedQty: number;
      actorId: string | null;
    },
    transaction: Transaction,
  ): Promise<CountRecord> {
    const rows = await this.db.sequelize.query<CountRecord>(
      `INSERT INTO cycle_counts (tenant_id, stock_row_id, warehouse_id, location_id, item_id, lot_no, system_qty, counted_qty, qty_adjusted, unresolved_qty, counted_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
       RETURNING id, system_qty::float8 AS "systemQty", counted_qty::float8 AS "countedQty", qty_adjusted::float8 AS "qtyAdjusted",
                 unresolved_qty::float8 AS "unresolvedQty", ${isoSql('created_at')} AS "createdAt"`,
      {
        bind: [
          input.tenantId,
          input.stockRowId,
          input.key.warehouseId,
          input.key.locationId,
          input.key.itemId,
          input.key.lotNo,
          input.systemQty,
          input.countedQty,
          input.qtyAdjusted,
          input.unresolvedQty,
          input.actorId,
        ],
        type: QueryTypes.SELECT,
        transaction,
      },
    );
    return rows[0]!;
  }
}
