export {
  LedgerPartitionsRepository,
  LEDGER_MONTHS_AHEAD,
  ledgerPartitionName,
  monthStart,
  type LedgerMaintenance,
} from './ledger-partitions.repository.js';
export {
  movementsQuerySchema,
  movementSchema,
  decodeMovementCursor,
  encodeMovementCursor,
  type MovementCursor,
  type MovementView,
  type MovementsQuery,
} from './movement.schemas.js';
export { StockLedgerService } from './ledger.service.js';
export {
  StockSnapshotsService,
  snapshotRequestSchema,
  isSnapshotId,
  type SnapshotRequest,
  snapshotViewSchema,
  type SnapshotView,
} from './snapshots.service.js';
export type { StoredSnapshot, SnapshotState, SnapshotDispatchUnit } from './snapshots.repository.js';
export {
  STOCK_SNAPSHOTS_QUEUE,
  STOCK_SNAPSHOT_JOB_NAME,
  createStockSnapshotsQueue,
  stockSnapshotJobOptions,
  type StockSnapshotJobData,
  type StockSnapshotsQueue,
} from './snapshots.contract.js';
