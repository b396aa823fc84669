export {
  LedgerPartitionsRepository,
  LEDGER_MONTHS_AHEAD,
  ledgerPartitionName,
  monthStart,
  type LedgerMaintenance,
} from './ledger-partitions.repository.js';
