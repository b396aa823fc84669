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
