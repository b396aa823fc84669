import { MetricsTime, Worker } from 'bullmq';
import {
  closeRedis,
  createRedis,
  closeWithin,
  openTenantWrites,
  type Runtime,
  queuePrefix,
  queueTelemetry,
} from '@wms/platform';
import type { IngestServices } from './services.js';
import {
  BulkJobEnds,
  BulkJobRunner,
  BulkJobsRepository,
  INGEST_QUEUE,
  INGEST_WORKER_LOCKS,
  createBulkJobDispatcher,
  createIngestQueue,
  type BulkJobDispatcher,
  type IngestJobData,
  type IngestJobName,
  type IngestJobResult,
} from '@wms/ingest';
import { createIngestProcessor } from './ingest.processor.js';
import { startImportsWorker } from './imports.worker.js';
import { startSnapshotsWorker } from './snapshots.worker.js';

export interface IngestWorkerHandle {
  worker: Worker<IngestJobData, IngestJobResult, IngestJobName>;
  dispatcher: BulkJobDispatcher;
  /** Lets active jobs finish, then closes the worker and its Redis connection (not the runtime's). */
  close(): Promise<void>;
}

/**
 * Starts consuming the ingest queue with INGEST_CONCURRENCY jobs at a time, and the dispatcher that feeds
 * it from PostgreSQL. Several processes may run.
 */
export function startIngestWorker(
  runtime: Runtime,
  services: Pick<IngestServices, 'ingest' | 'events'>,
  options: { concurrency?: number } = {},
): IngestWorkerHandle {
  const { config, logger } = runtime;
  const repository = new BulkJobsRepository(runtime.db);
  // A job's end is stored with `bulk.completed` for a caller answered 202.
  const ends = new BulkJobEnds(runtime.db, repository, services.events);
  const runner = new BulkJobRunner(runtime.db, services.ingest, repository, ends);
  const connection = createRedis(config, 'worker', 'ingest-worker');
  // With read replicas, a bulk job's and an import chunk's writes become their tenant's last write.
  const tenantWrites = openTenantWrites(runtime);
  const worker = new Worker<IngestJobData, IngestJobResult, IngestJobName>(
    INGEST_QUEUE,
    createIngestProcessor(runner, ends, logger, tenantWrites),
    {
      connection,
      prefix: queuePrefix(config),
      telemetry: queueTelemetry(),
      concurrency: options.concurrency ?? config.ingestConcurrency,
      ...INGEST_WORKER_LOCKS,
      // BullMQ's completed/failed totals, which its Prometheus export reads; it also reads every kept
      // per-minute point on each scrape, so only the last hour's are kept (the totals are unaffected).
      metrics: { maxDataPoints: MetricsTime.ONE_HOUR },
    },
  );
  worker.on('failed', (job, error) =>
    logger.warn(
      {
        jobId: job?.id,
        requestId: job?.data.requestId,
        traceId: job?.data.traceId,
        attemptsMade: job?.attemptsMade,
        err: error,
      },
      'ingest job failed',
    ),
  );
  worker.on('error', (error) => logger.error({ err: error }, 'ingest worker error'));
  const queue = createIngestQueue({ connection: runtime.redis, prefix: queuePrefix(config) });
  queue.on('error', () => undefined);
  const dispatcher = createBulkJobDispatcher(runtime.db, repository, ends, queue, logger);
  dispatcher.start(runtime.redis);
  // File imports: a queue of their own, so a bulk call never waits in line behind a file.
  const imports = startImportsWorker(runtime, services, tenantWrites);
  // Stock snapshot exports: a queue of their own too.
  const snapshots = startSnapshotsWorker(runtime);
  return {
    worker,
    dispatcher,
    async close() {
      await dispatcher.stop();
      await imports.close();
      await snapshots.close();
      await closeWithin(worker, undefined);
      await closeWithin(queue, 2_000);
      await closeRedis(connection);
    },
  };
}
