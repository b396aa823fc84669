import { QueryTypes, type Transaction } from 'sequelize';
import type { Database } from '@wms/platform';

/** A stock row to open at one (location, item, lot) of a warehouse. */
export interface StockRowOpening {
  warehouseId: string;
  locationId: string;
  itemId: string;
  /** '' for an item without lots. */
  lotNo: string;
  expiryDate?: string | null;
}

/** A change of one stock row, applied under its row lock. */
export interface StockDelta {
  stockRowId: string;
  onHand: number;
  allocated: number;
}

/** A stock row's balance after a change. */
export interface StockBalance {
  qtyOnHand: number;
  qtyAllocated: number;
}

/** What the ledger entries of one change record beside the quantities. */
export interface LedgerSource {
  cause: string;
  documentNo: string | null;
  apiKeyId: string | null;
  userId: string | null;
}

/**
 * Stock rows are changed and their ledger entries appended by one statement: the UPDATE's RETURNING (the
 * balance after, under the row lock) feeds the INSERT, so no change is ever without its entry. The entry's
 * time is taken after the lock, so one row's entries are in the order its changes were made.
 */
const APPLY_SQL = `WITH delta AS (
    SELECT * FROM json_to_recordset($1::json) AS d("stockRowId" uuid, "onHand" numeric, allocated numeric)),
  changed AS (
    UPDATE stock_rows AS s SET
      qty_on_hand = s.qty_on_hand + d."onHand",
      qty_allocated = s.qty_allocated + d.allocated,
      updated_at = now()
    FROM delta d WHERE s.id = d."stockRowId"
    RETURNING s.id, s.tenant_id, s.warehouse_id, s.location_id, s.item_id, s.lot_no, d."onHand", d.allocated,
              s.qty_on_hand, s.qty_allocated),
  logged AS (
    INSERT INTO stock_movements (tenant_id, stock_row_id, warehouse_id, location_id, item_id, lot_no,
                                 qty_on_hand_delta, qty_allocated_delta, qty_on_hand_after, qty_allocated_after,
                                 cause, document_no, api_key_id, user_id)
    SELECT tenant_id, id, warehouse_id, location_id, item_id, lot_no, "onHand", allocated, qty_on_hand, qty_allocated,
           $2, $3, $4::uuid, $5::uuid
      FROM changed ORDER BY id)
  SELECT id, qty_on_hand::float8 AS "qtyOnHand", qty_allocated::float8 AS "qtyAllocated" FROM changed`;

/**
 * Writes of stock rows, through the write kernel's `changeStock` and `openStockRows`. Every change locks the
 * rows it touches in id order, inside the caller's transaction; the table's CHECK refuses any change that
 * would let allocated exceed on hand or go below zero, so no interleaving can drive available stock negative.
 */
export class StockRepository {
  constructor(private readonly db: Database) {}

  /**
   * The rows of these keys, created empty where missing; answers each key's row id. Rows that exist already
   * are locked in id order first, like every other stock change, so a receipt and an allocation over the
   * same rows cannot deadlock; the upsert then only waits on new keys.
   */
  async open(tenantId: string, openings: StockRowOpening[], transaction: Transaction): Promise<Map<string, string>> {
    const merged = new Map<string, StockRowOpening>();
    for (const opening of openings) {
      const key = stockKey(opening);
      const existing = merged.get(key);
      merged.set(key, { ...opening, expiryDate: existing?.expiryDate ?? opening.expiryDate ?? null });
    }
    if (!merged.size) return new Map();
    const input = JSON.stringify([...merged.values()]);
    await this.db.sequelize.query(
      `SELECT s.id FROM stock_rows s
         JOIN json_to_recordset($1::json) AS r("warehouseId" uuid, "locationId" uuid, "itemId" uuid, "lotNo" text)
           ON s.warehouse_id = r."warehouseId" AND s.location_id = r."locationId" AND s.item_id = r."itemId" AND s.lot_no = r."lotNo"
        ORDER BY s.id FOR UPDATE OF s`,
      { bind: [input], type: QueryTypes.SELECT, transaction },
    );
    const rows = await this.db.sequelize.query<{ id: string; key: string }>(
      `INSERT INTO stock_rows AS s (tenant_id, warehouse_id, location_id, item_id, lot_no, expiry_date)
       SELECT $1::uuid, r."warehouseId", r."locationId", r."itemId", r."lotNo", r."expiryDate"
       FROM json_to_recordset($2::json) AS r("warehouseId" uuid, "locationId" uuid, "itemId" uuid, "lotNo" text, "expiryDate" date)
       ORDER BY r."warehouseId", r."locationId", r."itemId", r."lotNo"
       ON CONFLICT (warehouse_id, location_id, item_id, lot_no) DO UPDATE SET
         expiry_date = COALESCE(s.expiry_date, EXCLUDED.expiry_date)
       RETURNING id, warehouse_id || '/' || location_id || '/' || item_id || '/' || lot_no AS key`,
      { bind: [tenantId, input], type: QueryTypes.SELECT, transaction },
    );
    return new Map(rows.map((row) => [row.key, row.id]));
  }

  /**
   * Applies on-hand and allocated deltas to rows and appends their ledger entries: locks the rows in id order
   * first (FOR UPDATE), then changes and logs them in one statement. A delta that would break the CHECK
   * fails the whole transaction. Answers the balance after of each changed row.
   */
  async apply(
    deltas: StockDelta[],
    source: LedgerSource,
    transaction: Transaction,
  ): Promise<Map<string, StockBalance>> {
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
    const changes = [...merged.values()]
      .map((delta) => ({ ...delta, onHand: round(delta.onHand), allocated: round(delta.allocated) }))
      .filter((delta) => delta.onHand !== 0 || delta.allocated !== 0);
    if (!changes.length) return new Map();
    const ids = changes.map((delta) => delta.stockRowId).sort();
    await this.db.sequelize.query('SELECT id FROM stock_rows WHERE id = ANY($1::uuid[]) ORDER BY id FOR UPDATE', {
      bind: [ids],
      type: QueryTypes.SELECT,
      transaction,
    });
    const rows = await this.db.sequelize.query<StockBalance & { id: string }>(APPLY_SQL, {
      bind: [JSON.stringify(changes), source.cause, source.documentNo, source.apiKeyId, source.userId],
      type: QueryTypes.SELECT,
      transaction,
    });
    return new Map(rows.map(({ id, ...balance }) => [id, balance]));
  }
}

/** Quantities are numeric(18,4): merged float deltas keep 4 decimals. */
function round(qty: number): number {
  return Number(qty.toFixed(4));
}

export function stockKey(row: Pick<StockRowOpening, 'warehouseId' | 'locationId' | 'itemId' | 'lotNo'>): string {
  return `${row.warehouseId}/${row.locationId}/${row.itemId}/${row.lotNo}`;
}
