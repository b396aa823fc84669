import { unitOfWork, type Database, type Logger } from '@wms/platform';
import { JobDispatcher, type DispatchSource, type DispatcherOptions } from '../dispatch/index.js';
import { ingestJobData, ingestJobPriority, type IngestQueue } from './ingest.contract.js';
import type { BulkJobEnds } from './bulk-job-ends.js';
import type { BulkJobsRepository, DispatchRow } from './bulk-jobs.repository.js';

export type BulkJobDispatcher = JobDispatcher<DispatchRow, IngestQueue>;

/**
 * Bulk jobs as the dispatcher's units: a row of bulk_jobs is a job of the ingest queue under the row's id,
 * at its tenant's turn. A job BullMQ failed without the worker recording it (stalled too often) is marked
 * failed, or, when its entries are written already, retried so that its result is stored.
 */
export function bulkJobSource(
  db: Database,
  repository: BulkJobsRepository,
  ends: BulkJobEnds,
): DispatchSource<DispatchRow, IngestQueue> {
  return {
    label: 'bulk jobs',
    dispatch: (limit, staleMs, hand) => unitOfWork(db, (work) => repository.dispatch(limit, staleMs, hand, work)),
    job: (row) => ({
      name: row.entity,
      data: ingestJobData(row),
      opts: { priority: ingestJobPriority(row.lane, row.turn) },
    }),
    async failed(row, retry) {
      if (row.state === 'written') await retry();
      else await ends.fail(row.id, 'the ingest queue gave the job up');
    },
  };
}

/** Feeds the ingest queue from the bulk_jobs table (every ingest worker runs one). */
export function createBulkJobDispatcher(
  db: Database,
  repository: BulkJobsRepository,
  ends: BulkJobEnds,
  queue: IngestQueue,
  logger: Logger,
  options: DispatcherOptions = {},
): BulkJobDispatcher {
  return new JobDispatcher(bulkJobSource(db, repository, ends), queue, logger, options);
}
