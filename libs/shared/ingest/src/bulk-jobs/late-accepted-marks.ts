import { settleWithin, unitOfWork, type Database, type Logger } from '@wms/platform';
import type { BulkJobEnds } from './bulk-job-ends.js';
import type { BulkJobsRepository } from './bulk-jobs.repository.js';

/** How long each late mark waits for the job's row lock, and how many times it tries. */
const LOCK_WAIT_MS = 5_000;
const ATTEMPTS = 6;

/**
 * The 202s a gateway answered without marking them (the job's row was locked past the answer's bound, or
 * PostgreSQL did not answer): each is marked after the answer, so the job tells its end with
 * `bulk.completed`; a job that ended meanwhile, untold, has its end told now, once. Kept in memory: a
 * gateway that dies first leaves those callers to read the end at `statusUrl`.
 */
export class LateAcceptedMarks {
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly db: Database,
    private readonly repository: BulkJobsRepository,
    private readonly ends: BulkJobEnds,
    private readonly logger: Logger,
  ) {}

  /** Marks the job in the background; the answer does not wait for it. */
  add(jobId: string): void {
    const marking = this.markOrTell(jobId)
      .catch((error: unknown) =>
        this.logger.warn(
          { err: error, jobId },
          'a bulk job answered 202 was not marked to tell its end; its caller reads it at statusUrl',
        ),
      )
      .finally(() => this.pending.delete(marking));
    this.pending.add(marking);
  }

  /** Waits, at most `timeoutMs`, for the marks under way (a closing gateway). */
  async close(timeoutMs: number): Promise<void> {
    await settleWithin(Promise.allSettled([...this.pending]), timeoutMs);
  }

  private async markOrTell(jobId: string): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        const marked = await unitOfWork(this.db, (work) => this.repository.markAnsweredAccepted(jobId, work), {
          lockTimeoutMs: LOCK_WAIT_MS,
        });
        if (marked) return;
        await this.ends.tellLate(jobId);
        return;
      } catch (error) {
        if (attempt >= ATTEMPTS) throw error;
      }
    }
  }
}
