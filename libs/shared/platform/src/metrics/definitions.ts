import { Counter, Gauge, Histogram, type Metric } from 'prom-client';

/**
 * The platform's metrics (HTTP, rate limiting, Idempotency-Key), defined once per process; each capability
 * defines its own in its library, and setup composes what each process registers. The names are an interface: dashboards and
 * alerts rely on them. Label values come from small fixed sets only (never key ids, SKUs, URLs or raw
 * paths), so the number of series stays bounded.
 */

/** Buckets of a request or an attempt, in seconds. */
export const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Buckets of a job, in seconds. */
export const JOB_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

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
  help: 'Reads of inquiries and lists, by the pool that answered (primary, replica) and why (no_recent_write, caught_up, waited_out, no_replica, write_unknown, write_unstored, replica_failed)',
  labelNames: ['pool', 'reason'] as const,
  registers: [],
});

/** The platform's metrics of an HTTP process (the gateway composes them with its capabilities' own). */
export const httpMetrics: Metric[] = [httpRequestDuration, httpRequestsInFlight];

/** The platform's metrics of rate limiting and Idempotency-Key handling. */
export const guardMetrics: Metric[] = [rateLimitFallbacks, idempotencyOutcomes];

/** The platform's metrics of reads routed to replicas. */
export const replicaMetrics: Metric[] = [readReplicaLag, readReplicaInRotation, databaseReads];
