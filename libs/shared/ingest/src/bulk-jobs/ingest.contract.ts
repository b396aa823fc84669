import { Queue, type JobsOptions } from 'bullmq';
import type { BulkResult } from '../integration/index.js';
import type { IngestEntity } from '../entities/index.js';
import { defaultJobOptions, queueTelemetry, type QueueSettings } from '@wms/platform';
import { turnPriority } from '../dispatch/index.js';

/**
 * The contract of the ingest queue, imported by its producer (the gateway's bulk endpoints) and its
 * consumer (the ingest worker). A job is one bulk request of one API key in one tenant.
 */
export const INGEST_QUEUE = 'ingest';

/**
 * A job is named after its entity, one of the registered ingest handlers' names, for dashboards; the worker
 * reads the entity from the job's row and takes the handler, and its entry limit, from the registry.
 */
export type IngestJobName = IngestEntity;

/**
 * What Redis holds of a bulk job: who it belongs to, for logs and metrics. The entries and the result
 * live in PostgreSQL (bulk_jobs), keyed by the job id, so a job Redis loses is dispatched again from
 * there and the worker reads its entries once, from the row.
 */
export interface IngestJobData {
  tenantId: string;
  /** Owner of the job: only this key may read it through GET /jobs/:jobId. */
  apiKeyId: string;
  /** The request that submitted it, for the worker's log lines and the events the job causes. */
  requestId: string;
  /** W3C trace id the request came with, when it came with one. */
  traceId?: string;
}

/** The Redis side of a stored job. */
export function ingestJobData(job: Omit<IngestJobData, 'traceId'> & { traceId?: string | null }): IngestJobData {
  const { tenantId, apiKeyId, requestId, traceId } = job;
  return traceId ? { tenantId, apiKeyId, requestId, traceId } : { tenantId, apiKeyId, requestId };
}

/**
 * What a finished job returns to BullMQ: counts only, for dashboards and metrics. The result itself (the
 * bulk envelope without requestId, ≈ 100 kB for 500 entries) is stored on the job's row, and waiting
 * gateways read it there, so it does not travel through Redis twice (return value and completion event).
 */
export type IngestJobResult = Pick<BulkResult, 'status' | 'total' | 'created' | 'updated'> & { errors: number };

export function ingestJobSummary(result: BulkResult): IngestJobResult {
  const { status, total, created, updated, errors } = result;
  return { status, total, created, updated, errors: errors.length };
}

export type IngestQueue = Queue<IngestJobData, IngestJobResult, IngestJobName>;

/**
 * A bulk call waited on by its caller (`sync`) or answered 202 at once (`async`, `Prefer: respond-async`).
 * Each lane is a band of tenant turns (dispatch/tenant-turns.ts), the synchronous one first, so a
 * synchronous call never waits behind an asynchronous job still queued (only behind the jobs running when
 * it came).
 */
export type IngestLane = 'sync' | 'async';

/** The BullMQ priority of a job of `lane` whose tenant's turn is `turn` (ADR 0190). */
export function ingestJobPriority(lane: IngestLane, turn: number): number {
  return turnPriority(turn, lane === 'sync' ? 'first' : 'second');
}

/**
 * Attempts cover a database that goes away for a moment; a job's writes are tied to its row, so a
 * retried (or re-dispatched) job never writes twice. A completed job leaves Redis at once: its row in
 * PostgreSQL is the record (state and result), and keeping it in Redis too cost each job a trim of the
 * completed set; failed ones stay for inspection.
 */
export const ingestJobOptions: JobsOptions = {
  ...defaultJobOptions,
  removeOnComplete: true,
  attempts: 3,
  backoff: { type: 'exponential', delay: 1_000 },
};

/**
 * Lock and stalled-job settings of every ingest worker. A worker that dies holding a job loses its lock
 * after `lockDuration` (it renews it every half of that while alive); the next stalled check, every
 * `stalledInterval`, puts the job back, so a crashed job runs again within about 7 s instead of BullMQ's
 * default of up to 60 s. The cost: a worker whose event loop stalls longer than 5 s loses a job it is
 * still running and another worker starts it, which the job row makes harmless (the second run waits for
 * the first's claim and reports its result). A job that stalls more than twice (it kills every worker
 * that takes it) fails.
 */
export const INGEST_WORKER_LOCKS = { lockDuration: 5_000, stalledInterval: 2_000, maxStalledCount: 2 } as const;

export function createIngestQueue(settings: QueueSettings): IngestQueue {
  return new Queue<IngestJobData, IngestJobResult, IngestJobName>(INGEST_QUEUE, {
    connection: settings.connection,
    prefix: settings.prefix,
    defaultJobOptions: ingestJobOptions,
    // Nobody reads the event stream (waiting gateways hear PostgreSQL): keep it short.
    streams: { events: { maxLen: 1_000 } },
    telemetry: queueTelemetry(),
  });
}
