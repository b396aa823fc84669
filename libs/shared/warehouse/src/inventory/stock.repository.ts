import { QueryTypes, type Transaction } from 'sequelize';
import type { Database } from '@wms/platform';

/** Stock put on hand at one (location, item, lot) of a warehouse. */
export interface StockReceipt {
  warehouseId: string;
  locationId: string;
  itemId: string;
  /** '' for an item without lots. */
  lotNo: string;
  expiryDate: string | null;
  qty: number;
}

/** A change of one stock row, applied under its row lock. */
export interface StockDelta {
  stockRowId: string;
  onHand: number;
  allocated: number;
}

/**
 * Writes of stock rows. Every change locks the rows it touches in id order, inside
 * the caller's transaction; the table's CHECK refuses any change that would let allocated exceed on
 * hand or go below zero, so no interleaving can drive available stock negative.
 */
export class StockRepository {
  constructor(private readonly db: Database) {}

  /**
   * Adds quantities on hand, creating rows as needed; returns the row id of each receipt's key. Receipts
   * are merged by key first (one statement cannot touch a row twice). A lot keeps the expiry date of its
   * first receipt at a location.
   */
  async receive(tenantId: string, receipts: StockReceipt[], transaction: Transaction): Promise<Map<string, string>> {
    const merged = new Map<string, StockReceipt>();
    for (const receipt of receipts) {
      const key = stockKey(receipt);
      const existing = merged.get(key);
      merged.set(
        key,
        existing
          ? { ...existing, qty: existing.qty + receipt.qty, expiryDate: existing.expiryDate ?? receipt.expiryDate }
          : receipt,
      );
    }
    const input = JSON.stringify([...merged.values()]);
    // Rows that exist already are locked in id order first, like every other stock change, so a receipt
    // and an allocation over the same rows cannot deadlock; the upsert then only waits on new keys.
    await this.db.sequelize.query(
      `SELECT s.id FROM stock_rows s
         JOIN json_to_recordset($1::json) AS r("warehouseId" uuid, "locationId" uuid, "itemId" uuid, "lotNo" text)
           ON s.warehouse_id = r."warehouseId" AND s.location_id = r."locationId" AND s.item_id = r."itemId" AND s.lot_no = r."lotNo"
        ORDER BY s.id FOR UPDATE OF s`,
      { bind: [input], type: QueryTypes.SELECT, transaction },
    );
    const rows = await this.db.sequelize.query<{ id: string; key: string }>(
      `INSERT INTO stock_rows AS s (tenant_id, warehouse_id, location_id, item_id, lot_no, expiry_date, qty_on_hand)
       SELECT $1::uuid, r."warehouseId", r."locationId", r."itemId", r."lotNo", r."expiryDate", r.qty
       FROM json_to_recordset($2::json) AS r("warehouseId" uuid, "locationId" uuid, "itemId" uuid, "lotNo" text, "expiryDate" date, qty numeric)
       ORDER BY r."warehouseId", r."locationId", r."itemId", r."lotNo"
       ON CONFLICT (warehouse_id, location_id, item_id, lot_no) DO UPDATE SET
         qty_on_hand = s.qty_on_hand + EXCLUDED.qty_on_hand,
         expiry_date = COALESCE(s.expiry_date, EXCLUDED.expiry_date),
         updated_at = now()
       RETURNING id, warehouse_id || '/' || location_id || '/' || item_id || '/' || lot_no AS key`,
      { bind: [tenantId, input], type: QueryTypes.SELECT, transaction },
    );
    return new Map(rows.map((row) => [row.key, row.id]));
  }

  /**
   * Applies on-hand and allocated deltas to rows: locks them in id order first (FOR UPDATE), then
   * updates them in one statement. A delta that would break the CHECK fails the whole transaction.
   */
  async apply(deltas: StockDelta[], transaction: Transaction): Promise<void> {
    const merged = new Map<string, StockDelta>();
    for (const delta of deltas) {
      const existing = merged.get(delta.stockRowId);
      merged.set(
        delta.stockRowId,
        existing
          ? { ...existing, onHand: existing.onHand + delta.onHand, allocated: existing.allocated + delta.allocated }
          : delta,
      );
    }
    const changes = [...merged.values()].filter((delta) => delta.onHand !== 0 || delta.allocated !== 0);
    if (!changes.length) return;
    const ids = changes.map((delta) => delta.stockRowId).sort();
    await this.db.sequelize.query('SELECT id FROM stock_rows WHERE id = ANY($1::uuid[]) ORDER BY id FOR UPDATE', {
      bind: [ids],
      type: QueryTypes.SELECT,
      transaction,
    });
    await this.db.sequelize.query(
      `UPDATE stock_rows AS s SET
         qty_on_hand = s.qty_on_hand + d."onHand",
         qty_allocated = s.qty_allocated + d.allocated,
         updated_at = now()
       FROM json_to_recordset($1::json) AS d("stockRowId" uuid, "onHand" numeric, allocated numeric)
       WHERE s.id = d."stockRowId"`,
      { bind: [JSON.stringify(changes)], type: QueryTypes.UPDATE, transaction },
    );
  }
}

export function stockKey(row: Pick<StockReceipt, 'warehouseId' | 'locationId' | 'itemId' | 'lotNo'>): string {
  return `${row.warehouseId}/${row.locationId}/${row.itemId}/${row.lotNo}`;
}
