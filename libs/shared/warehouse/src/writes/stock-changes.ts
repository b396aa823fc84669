import type { Database } from '@wms/platform';
import { StockRepository, type StockBalance, type StockDelta, type StockRowOpening } from './stock-rows.repository.js';
import type { WriteContext } from './write-context.js';

/** Why stock changed: the operation, as a ledger entry names it. */
export const STOCK_CAUSES = [
  'grn',
  'allocation',
  'release',
  'pick',
  'shipment',
  'adjustment',
  'cycle_count',
  'return',
  'simulation',
] as const;
export type StockCause = (typeof STOCK_CAUSES)[number];

/** What a stock change's ledger entries record beside the quantities: the cause and its document's number. */
export interface StockMovementSource {
  cause: StockCause;
  /** The document the change belongs to (GRN, order, shipment, adjustment or count id, RMA); null for none. */
  documentNo: string | null;
}

/**
 * The one way stock changes: applies on-hand and allocated deltas to stock rows under their row locks (taken
 * in id order) and appends one inventory ledger entry per changed row, with the balance after, the cause,
 * the document and the context's caller, in the same statement and so the same transaction. Deltas of one
 * row are merged; a row whose deltas cancel out is neither changed nor logged. In a simulated context the
 * cause is `simulation`. A change that would break the rows' CHECK (allocated above on hand, below zero)
 * fails the statement and the transaction. Answers each changed row's balance after, by stock row id.
 */
export function changeStock(
  db: Database,
  context: WriteContext,
  source: StockMovementSource,
  deltas: StockDelta[],
): Promise<Map<string, StockBalance>> {
  const caller = context.caller;
  return new StockRepository(db).apply(
    deltas,
    {
      cause: context.simulated ? 'simulation' : source.cause,
      documentNo: source.documentNo,
      apiKeyId: caller && 'apiKeyId' in caller ? caller.apiKeyId : null,
      userId: caller && 'userId' in caller ? caller.userId : null,
    },
    context.transaction,
  );
}

/**
 * The stock rows of these keys, made (empty) where missing and locked, existing rows in id order first;
 * answers the row id of each key (`stockKey`). A lot keeps the expiry date of its first receipt at a
 * location. Stock is then put on hand with `changeStock`.
 */
export function openStockRows(
  db: Database,
  context: WriteContext,
  rows: StockRowOpening[],
): Promise<Map<string, string>> {
  return new StockRepository(db).open(context.tenantId, rows, context.transaction);
}
