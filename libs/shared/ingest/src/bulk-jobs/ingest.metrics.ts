import { Counter, Histogram, type Metric } from 'prom-client';
import { JOB_BUCKETS } from '@wms/platform';

/** The ingest worker's metrics; the names are an interface (dashboards and alerts rely on them). */
export const ingestJobs = new Counter({
  name: 'wms_ingest_jobs_total',
  help: 'Bulk job attempts the ingest worker finished, by entity and outcome (completed, failed)',
  labelNames: ['entity', 'outcome'] as const,
  registers: [],
});

export const ingestJobDuration = new Histogram({
  name: 'wms_ingest_job_duration_seconds',
  help: 'Time one bulk job attempt took in the ingest worker, by entity',
  labelNames: ['entity'] as const,
  buckets: JOB_BUCKETS,
  registers: [],
});

export const ingestQueueWait = new Histogram({
  name: 'wms_ingest_queue_wait_seconds',
  help: 'Time a bulk job waited in the ingest queue before its first attempt started, by entity',
  labelNames: ['entity'] as const,
  buckets: JOB_BUCKETS,
  registers: [],
});

export const ingestEntries = new Counter({
  name: 'wms_ingest_entries_total',
  help: 'Bulk entries the ingest worker processed, by entity and outcome (created, updated, error)',
  labelNames: ['entity', 'outcome'] as const,
  registers: [],
});

export const importStageSeconds = new Counter({
  name: 'wms_import_stage_seconds_total',
  help: "Time the ingest worker spent on file imports' written chunks, by entity and stage (read: staged rows read back, parse, validate, write: the merge and the chunk's record)",
  labelNames: ['entity', 'stage'] as const,
  registers: [],
});

export const ingestMetrics: Metric[] = [
  ingestJobs,
  ingestJobDuration,
  ingestQueueWait,
  ingestEntries,
  importStageSeconds,
];
