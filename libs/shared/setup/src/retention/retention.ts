import type { Config } from '@wms/platform';
import type { Database } from '@wms/platform';
import type { Logger } from '@wms/platform';
import { unitOfWork } from '@wms/platform';
import { BulkJobsRepository } from '@wms/ingest';
import type { IdempotencyService } from '@wms/platform';
import { AddressLocksRepository, AuditRepository } from '@wms/identity';
import { DeliveredEventsRepository } from '@wms/webhooks';
import { LedgerPartitionsRepository, StockSnapshotsService } from '@wms/warehouse';

export const RETENTION_BATCH = 1_000;

/** What one sweep deleted, per table. */
export interface SweepResult {
  idempotencyRecords: number;
  bulkJobs: number;
  events: number;
  auditEntries: number;
  /** Months of the inventory ledger dropped (their balances kept as checkpoints). */
  stockLedgerMonths: number;
  stockSnapshots: number;
  /** E-mails without an account whose failed sign-ins are no longer remembered. */
  loginAddresses: number;
}

/** Deletes in bounded batches until a batch comes back short. */
async function drain(purge: () => Promise<number>): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = await purge();
    total += deleted;
    if (deleted < RETENTION_BATCH) return total;
  }
}

/**
 * Retention, through the repositories of the tables' owners, of everything but the request log (which drops partitions): expired Idempotency-Key records,
 * finished bulk jobs, delivered events with their deliveries and attempts, audit entries when
 * AUDIT_RETENTION_DAYS is set, stock snapshot exports, e-mails without an account not tried for ADDRESS_MEMORY_DAYS, and the inventory ledger's months older than STOCK_LEDGER_RETENTION_DAYS (the
 * sweep also makes its coming months' partitions). Each table is purged in batches of RETENTION_BATCH until none is left; a
 * table whose purge fails is logged and left for the next sweep, the others go on.
 */
export class RetentionSweeper {
  private readonly deliveredEvents: DeliveredEventsRepository;
  private readonly audit: AuditRepository;
  private readonly addressLocks: AddressLocksRepository;
  private readonly bulkJobs: BulkJobsRepository;
  private readonly ledger: LedgerPartitionsRepository;
  private readonly snapshots: StockSnapshotsService;

  constructor(
    private readonly db: Database,
    private readonly config: Pick<Config, 'bulkJobRetentionSeconds' | 'retention'>,
    private readonly idempotency: Pick<IdempotencyService, 'purgeExpired'>,
    private readonly logger: Logger,
  ) {
    this.deliveredEvents = new DeliveredEventsRepository(db);
    this.audit = new AuditRepository(db);
    this.addressLocks = new AddressLocksRepository(db);
    this.bulkJobs = new BulkJobsRepository(db);
    this.ledger = new LedgerPartitionsRepository(db);
    this.snapshots = new StockSnapshotsService(db);
  }

  async sweep(): Promise<SweepResult> {
    const { retention, bulkJobRetentionSeconds } = this.config;
    const auditDays = retention.auditDays;
    const run = async (table: string, purge: () => Promise<number>) => {
      try {
        return await drain(purge);
      } catch (error) {
        this.logger.warn({ err: error, table }, 'retention purge failed; retrying at the next sweep');
        return 0;
      }
    };
    const result: SweepResult = {
      idempotencyRecords: await run('idempotency_records', () => this.idempotency.purgeExpired(RETENTION_BATCH)),
      bulkJobs: await run('bulk_jobs', () => this.bulkJobs.purgeFinished(bulkJobRetentionSeconds, RETENTION_BATCH)),
      events: await run('events', () =>
        this.deliveredEvents.purge(retention.deliveredEventDays, retention.failedEventDays, RETENTION_BATCH),
      ),
      auditEntries:
        auditDays === null ? 0 : await run('audit_logs', () => this.audit.purgeOlderThan(auditDays, RETENTION_BATCH)),
      stockLedgerMonths: await this.maintainLedger(retention.stockLedgerDays),
      stockSnapshots: await run('stock_snapshots', () =>
        this.snapshots.purgeOlderThan(retention.stockSnapshotDays, RETENTION_BATCH),
      ),
      loginAddresses: await run('login_address_locks', () => this.addressLocks.purgeForgotten(RETENTION_BATCH)),
    };
    if (Object.values(result).some((count) => count > 0)) this.logger.info(result, 'retention sweep deleted');
    return result;
  }

  private async maintainLedger(days: number): Promise<number> {
    try {
      return (await unitOfWork(this.db, (work) => this.ledger.maintain(work, days)))?.dropped.length ?? 0;
    } catch (error) {
      this.logger.warn(
        { err: error, table: 'stock_movements' },
        'ledger maintenance failed; retrying at the next sweep',
      );
      return 0;
    }
  }
}
