import { QueryTypes } from 'sequelize';
import { unitOfWork } from '@wms/platform';
import type { WriteContext } from '@wms/warehouse';
import type { TestContext } from './test-context.js';

/**
 * A tenant's stock and its inventory ledger as the database holds them, for the specs of the warehouse's
 * invariants: every change of a stock row has its ledger entry, the entries of a row add up to its balance
 * (after its latest checkpoint), each entry's balance after follows from the one before, and entries once
 * written stay as they were.
 */
type Reading = Pick<TestContext, 'runtime'>;

/** Runs `work` as the tenant's write, in a unit of work of its own (committed when it resolves). */
export function inTenant<T>(ctx: Reading, tenantId: string, work: (context: WriteContext) => Promise<T>): Promise<T> {
  return unitOfWork(ctx.runtime.db, (transaction) => work({ tenantId, transaction }));
}

/** One stock row: where, what, and its balance. */
export interface StockRowState {
  stockRowId: string;
  location: string;
  sku: string;
  lotNo: string;
  onHand: number;
  allocated: number;
}

/** The tenant's stock rows (of one sku when named), in location, sku and lot order. */
export async function stockRowsOf(ctx: Reading, tenantId: string, sku?: string): Promise<StockRowState[]> {
  return ctx.runtime.db.sequelize.query<StockRowState>(
    `SELECT s.id AS "stockRowId", l.code AS location, i.sku, s.lot_no AS "lotNo",
            s.qty_on_hand::float8 AS "onHand", s.qty_allocated::float8 AS allocated
       FROM stock_rows s JOIN locations l ON l.id = s.location_id JOIN items i ON i.id = s.item_id
      WHERE s.tenant_id = $1 AND ($2::text IS NULL OR i.sku = $2)
      ORDER BY l.code, i.sku, s.lot_no`,
    { bind: [tenantId, sku ?? null], type: QueryTypes.SELECT },
  );
}

/** One inventory ledger entry, every column of it. */
export interface LedgerEntry {
  id: number;
  at: Date;
  stockRowId: string;
  location: string;
  sku: string;
  lotNo: string;
  onHandDelta: number;
  allocatedDelta: number;
  onHandAfter: number;
  allocatedAfter: number;
  cause: string;
  documentNo: string | null;
  apiKeyId: string | null;
  userId: string | null;
}

/** The tenant's ledger entries in the order they were written. */
export async function ledgerOf(ctx: Reading, tenantId: string): Promise<LedgerEntry[]> {
  return ctx.runtime.db.sequelize.query<LedgerEntry>(
    `SELECT m.id, m.at, m.stock_row_id AS "stockRowId", l.code AS location, i.sku, m.lot_no AS "lotNo",
            m.qty_on_hand_delta::float8 AS "onHandDelta", m.qty_allocated_delta::float8 AS "allocatedDelta",
            m.qty_on_hand_after::float8 AS "onHandAfter", m.qty_allocated_after::float8 AS "allocatedAfter",
            m.cause, m.document_no AS "documentNo", m.api_key_id AS "apiKeyId", m.user_id AS "userId"
       FROM stock_movements m JOIN locations l ON l.id = m.location_id JOIN items i ON i.id = m.item_id
      WHERE m.tenant_id = $1
      ORDER BY m.at, m.id`,
    { bind: [tenantId], type: QueryTypes.SELECT },
  );
}

/**
 * Where the tenant's stock and its ledger disagree, one line per problem (none when they agree): a row whose
 * balance is not its latest checkpoint plus its entries after it, an entry whose balance after is not the
 * balance before it plus its delta, a row whose balance is not its last entry's balance after.
 */
export async function ledgerDisagreements(ctx: Reading, tenantId: string): Promise<string[]> {
  const [rows, entries, checkpoints] = await Promise.all([
    stockRowsOf(ctx, tenantId),
    ledgerOf(ctx, tenantId),
    ctx.runtime.db.sequelize.query<{ stockRowId: string; at: Date; onHand: number; allocated: number }>(
      `SELECT DISTINCT ON (stock_row_id) stock_row_id AS "stockRowId", at,
              qty_on_hand::float8 AS "onHand", qty_allocated::float8 AS allocated
         FROM stock_checkpoints WHERE tenant_id = $1 ORDER BY stock_row_id, at DESC`,
      { bind: [tenantId], type: QueryTypes.SELECT },
    ),
  ]);
  const problems: string[] = [];
  const round = (qty: number) => Number(qty.toFixed(4));
  for (const row of rows) {
    const name = `${row.location}/${row.sku}/${row.lotNo || '-'}`;
    const checkpoint = checkpoints.find((found) => found.stockRowId === row.stockRowId);
    const own = entries.filter(
      (entry) => entry.stockRowId === row.stockRowId && (!checkpoint || entry.at > checkpoint.at),
    );
    let onHand = checkpoint?.onHand ?? 0;
    let allocated = checkpoint?.allocated ?? 0;
    for (const entry of own) {
      onHand = round(onHand + entry.onHandDelta);
      allocated = round(allocated + entry.allocatedDelta);
      if (entry.onHandAfter !== onHand || entry.allocatedAfter !== allocated)
        problems.push(
          `${name}: entry ${entry.id} (${entry.cause}) says ${entry.onHandAfter}/${entry.allocatedAfter} after, its deltas make ${onHand}/${allocated}`,
        );
    }
    if (row.onHand !== onHand || row.allocated !== allocated)
      problems.push(`${name}: holds ${row.onHand}/${row.allocated}, its ledger adds up to ${onHand}/${allocated}`);
  }
  return problems;
}
