import { BulkAlreadyWritten, type WriteGuard } from '@wms/warehouse';
import type { BulkJobsRepository } from './bulk-jobs.repository.js';

/**
 * The guard of a stored job's one statement (a bulk that needs no transaction). The statement is
 * wrapped so that, atomically: it locks the job's row if still `queued`, writes only then, and marks the
 * row `written` with what it returned (BulkJobsRepository.runGuarded). A second run of the job waits for
 * the first's lock, finds the row no longer `queued` and writes nothing. A run that finds the row
 * `written` (the first stopped before storing its result) gets the stored rows back, so it reports
 * exactly what the first run did.
 */
export class JobWriteGuard implements WriteGuard {
  constructor(
    private readonly repository: BulkJobsRepository,
    private readonly jobId: string,
    /** The rows stored by the statement of an earlier run, when the job is `written` already. */
    private readonly written?: object[],
  ) {}

  async run<Row extends object>(sqlOf: (condition: string) => string, bind: unknown[]): Promise<Row[]> {
    if (this.written) return this.written as Row[];
    const rows = await this.repository.runGuarded<Row>(this.jobId, sqlOf, bind);
    // Every entry of a guarded statement answers a row; none means the claim was not ours.
    if (!rows.length) throw new BulkAlreadyWritten();
    return rows;
  }
}
