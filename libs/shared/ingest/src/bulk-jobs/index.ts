export {
  BulkJobsRepository,
  type BulkJobState,
  type BulkJobStatus,
  type NewBulkJob,
  type StoredBulkJob,
  type Submission,
  type DispatchRow,
  type EndedBulkJob,
} from './bulk-jobs.repository.js';
export { BulkJobEnds } from './bulk-job-ends.js';
export { JobWriteGuard } from './job-guard.js';
export { BulkJobRunner, BulkJobRefused, type BulkJobRun } from './bulk-job-runner.js';
export { bulkJobSource, createBulkJobDispatcher, type BulkJobDispatcher } from './bulk-job-dispatcher.js';
export { BulkJobSignals, BULK_JOB_FINISHED_CHANNEL, type JobSignal } from './bulk-job-signals.js';
export * from './ingest.contract.js';
export { IngestJobs, type JobOutcome, type PublicJob, type PublicJobState, type Submitted } from './ingest-jobs.js';
export {
  ingestJobs,
  ingestJobDuration,
  ingestQueueWait,
  ingestEntries,
  importStageSeconds,
  ingestMetrics,
} from './ingest.metrics.js';
