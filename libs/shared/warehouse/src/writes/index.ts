export {
  BulkAlreadyWritten,
  type EntryOutcome,
  type EntryRef,
  type StatementContext,
  type WriteCaller,
  type WriteContext,
  type WriteGuard,
} from './write-context.js';
export {
  STOCK_CAUSES,
  changeStock,
  openStockRows,
  type StockCause,
  type StockMovementSource,
} from './stock-changes.js';
export { stockKey, type StockRowOpening, type StockDelta, type StockBalance } from './stock-rows.repository.js';
export { balanceAsOfSql } from './balance-as-of.js';
