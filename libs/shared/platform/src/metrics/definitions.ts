import { Counter, Gauge, Histogram, type Metric } from 'prom-client';

/**
 * Every metric the apps export, defined once per process and registered by the processes that move it
 * (`gatewayMetrics`, `ingestMetrics`, `webhookMetrics`). The names are an interface: dashboards and
 * alerts rely on them. Label values come from small fixed sets only (never key ids, SKUs, URLs or raw
 * paths), so the number of series stays bounded.
 */

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const JOB_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

export const httpRequestDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'HTTP requests answered, by method, route template and status code',
  labelNames: ['method', 'route', 'status_code'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [],
});

export const httpRequestsInFlight = new Gauge({
  name: 'http_requests_in_flight',
  help: 'HTTP requests received and not yet answered',
  registers: [],
});

export const apiKeyRefusals = new Counter({
  name: 'wms_api_key_refusals_total',
  help: 'Integration requests the API-key guard refused, by reason (missing, invalid, throttled, scope, ip, origin, rate_limited)',
  labelNames: ['reason'] as const,
  registers: [],
});

export const rateLimitFallbacks = new Counter({
  name: 'wms_rate_limit_fallbacks_total',
  help: 'Rate-limit decisions taken by the in-process limiter because Redis did not answer',
  registers: [],
});

export const idempotencyOutcomes = new Counter({
  name: 'wms_idempotency_total',
  help: 'Requests with an Idempotency-Key, by outcome (stored, replayed, mismatch, in_progress)',
  labelNames: ['outcome'] as const,
  registers: [],
});

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

export const webhookDeliveries = new Counter({
  name: 'wms_webhook_deliveries_total',
  help: 'Webhook delivery attempts by outcome (succeeded, retried, failed, disabled)',
  labelNames: ['outcome'] as const,
  registers: [],
});

export const webhookAttemptDuration = new Histogram({
  name: 'wms_webhook_attempt_duration_seconds',
  help: 'Time from sending a webhook to its answer (or timeout or connection error)',
  buckets: LATENCY_BUCKETS,
  registers: [],
});

export const readReplicaLag = new Gauge({
  name: 'wms_db_replica_lag_seconds',
  help: 'How far each read replica is behind the primary (0 once it has replayed all the primary wrote); absent while it does not answer',
  labelNames: ['replica'] as const,
  registers: [],
});

export const readReplicaInRotation = new Gauge({
  name: 'wms_db_replica_in_rotation',
  help: 'Per read replica: 1 while it takes reads, 0 while it is left out (lagging past READ_REPLICA_MAX_LAG_SECONDS, not answering, or no longer a standby)',
  labelNames: ['replica'] as const,
  registers: [],
});

export const databaseReads = new Counter({
  name: 'wms_db_reads_total',
  help: 'Reads of inquiries and lists, by the pool that answered (primary, replica) and why (no_recent_write, caught_up, waited_out, no_replica, write_unknown, replica_failed)',
  labelNames: ['pool', 'reason'] as const,
  registers: [],
});

/** The gateway's own metrics (queue gauges and process metrics are added by the registry). */
export const gatewayMetrics: Metric[] = [
  httpRequestDuration,
  httpRequestsInFlight,
  apiKeyRefusals,
  rateLimitFallbacks,
  idempotencyOutcomes,
  readReplicaLag,
  readReplicaInRotation,
  databaseReads,
];

export const ingestMetrics: Metric[] = [
  ingestJobs,
  ingestJobDuration,
  ingestQueueWait,
  ingestEntries,
  importStageSeconds,
];

export const webhookMetrics: Metric[] = [webhookDeliveries, webhookAttemptDuration];
