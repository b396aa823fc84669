import type { Transaction } from 'sequelize';
import type { Database } from '@wms/platform';
import { unitOfWork } from '@wms/platform';
import type { EventsService } from '@wms/events';
import { INTEGRATION_JOBS_PATH, bulkResultText, type BulkResult } from '../integration/index.js';
import type { BulkJobsRepository, EndedBulkJob } from './bulk-jobs.repository.js';

/**
 * A bulk job's end (its result stored, or its failure) and, for a caller answered 202, `bulk.completed` in
 * the same transaction: the event is sent exactly when the job ended, and never for a caller that got the
 * result in its answer (200 or 207). The event belongs to the work that ended the job, so it carries that
 * work's trace context (the ingest job's span, under the bulk call's trace) to the subscriber.
 */
export class BulkJobEnds {
  constructor(
    private readonly db: Database,
    private readonly repository: BulkJobsRepository,
    private readonly events: Pick<EventsService, 'append'>,
  ) {}

  /** Stores the result, in `transaction` when the bulk wrote in one (its writes and its end commit together). */
  async complete(jobId: string, result: BulkResult, transaction?: Transaction): Promise<void> {
    const text = bulkResultText(result);
    const end = async (within: Transaction) => {
      const ended = await this.repository.complete(jobId, text, within);
      if (ended?.tellsEnd) await this.tell(ended, result, within);
    };
    if (transaction) return end(transaction);
    // The usual case, a caller waiting for the answer: one statement, no transaction. Otherwise the result
    // and bulk.completed commit together (or nothing, when another run ended the job first).
    if (await this.repository.completeUntold(jobId, text)) return;
    await unitOfWork(this.db, end);
  }

  /** Marks the job failed (when it was neither written nor ended) and tells a caller answered 202. */
  async fail(jobId: string, error: string): Promise<void> {
    await unitOfWork(this.db, async (transaction) => {
      const ended = await this.repository.fail(jobId, error, transaction);
      if (ended?.tellsEnd) await this.tell(ended, null, transaction);
    });
  }

  /**
   * Tells the end of a synchronous job answered 202 whose mark came too late (the job ended meanwhile,
   * untold): once, whoever asks again. False when there was nothing to tell.
   */
  async tellLate(jobId: string): Promise<boolean> {
    return unitOfWork(this.db, async (transaction) => {
      const ended = await this.repository.claimUntoldEnd(jobId, transaction);
      if (!ended) return false;
      await this.tell(ended, ended.result ? (JSON.parse(ended.result) as BulkResult) : null, transaction);
      return true;
    });
  }

  private async tell(job: EndedBulkJob, result: BulkResult | null, transaction: Transaction): Promise<void> {
    await this.events.append(transaction, {
      tenantId: job.tenantId,
      event: 'bulk.completed',
      data: {
        jobId: job.id,
        entity: job.entity,
        state: result ? 'completed' : 'failed',
        status: result?.status ?? null,
        total: result?.total ?? 0,
        created: result?.created ?? 0,
        updated: result?.updated ?? 0,
        failed: result?.errors.length ?? 0,
        statusUrl: `${INTEGRATION_JOBS_PATH}/${job.id}`,
      },
    });
  }
}
