import type { Transaction } from 'sequelize';
import type { Database } from '@wms/platform';
import { runBulk, type BulkJobHooks, type BulkResult, type IngestRegistry } from '../integration/index.js';
import { BulkAlreadyWritten } from '@wms/warehouse';
import type { BulkJobEnds } from './bulk-job-ends.js';
import type { BulkJobsRepository, StoredBulkJob } from './bulk-jobs.repository.js';
import { JobWriteGuard } from './job-guard.js';

/** A job no run can ever complete (unknown, purged, failed, malformed): it must not be retried. */
export class BulkJobRefused extends Error {
  override name = 'BulkJobRefused';
}

export interface BulkJobRun {
  job: Pick<StoredBulkJob, 'id' | 'entity' | 'requestId' | 'tenantId'>;
  result: BulkResult;
}

/**
 * Runs a stored bulk job, however many times it is dispatched, so that its entries are written at most
 * once and every run reports the same result: a completed job answers its stored result; a job written
 * but not completed answers from the rows its statement stored; otherwise the bulk runs with its writes
 * tied to the job's row (a claim in its transaction, or the guarded statement) and the result is stored
 * with them (`ends`, which also tells a caller answered 202 that the job ended).
 */
export class BulkJobRunner {
  constructor(
    private readonly db: Database,
    private readonly registry: IngestRegistry,
    private readonly repository: BulkJobsRepository,
    private readonly ends: BulkJobEnds,
  ) {}

  async run(jobId: string): Promise<BulkJobRun> {
    // A second pass follows a run that lost the claim to another: that one's work is read back.
    for (let pass = 0; pass < 2; pass += 1) {
      const job = await this.repository.load(jobId);
      if (!job) throw new BulkJobRefused(`bulk job ${jobId} is not stored (purged or never accepted)`);
      if (job.state === 'completed') return { job, result: JSON.parse(job.result!) as BulkResult };
      if (job.state === 'failed') throw new BulkJobRefused(`bulk job ${jobId} has failed`);
      const handler = this.registry.get(job.entity);
      if (!handler) throw new BulkJobRefused(`no ingest handler for ${job.entity}`);
      const entries = JSON.parse(job.entries) as unknown;
      if (!Array.isArray(entries) || entries.length === 0 || entries.length > handler.maxEntries)
        throw new BulkJobRefused(`bulk job ${jobId} holds no entries or more than ${handler.maxEntries}`);
      try {
        const result = await runBulk(this.db, handler, entries, { tenantId: job.tenantId, job: this.hooks(job) });
        return { job, result };
      } catch (error) {
        if (!(error instanceof BulkAlreadyWritten)) throw error;
      }
    }
    throw new Error(`bulk job ${jobId} was claimed by another run that has not finished`);
  }

  private hooks(job: StoredBulkJob): BulkJobHooks {
    const written = job.state === 'written' ? (JSON.parse(job.outcome ?? '[]') as object[]) : undefined;
    return {
      guard: new JobWriteGuard(this.repository, job.id, written),
      claim: (transaction: Transaction) => this.repository.claim(job.id, transaction),
      // Another run that completed first stored the same result (from the same written rows).
      complete: (result, transaction) => this.ends.complete(job.id, result, transaction),
    };
  }
}
