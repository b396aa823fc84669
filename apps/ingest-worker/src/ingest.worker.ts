import { Worker } from 'bullmq';
import { INGEST_QUEUE, createRedis, type IngestJobData, type IngestJobName, type IngestJobResult, type Runtime, type Services } from '@wms/shared';
import { createIngestProcessor } from './ingest.processor.js';

export interface IngestWorkerHandle {
  worker: Worker<IngestJobData, IngestJobResult, IngestJobName>;
  /** Lets active jobs finish, then closes the worker and its Redis connection (not the runtime's). */
  close(): Promise<void>;
}

/** Starts consuming the ingest queue with INGEST_CONCURRENCY jobs at a time. Several processes may run. */
export function startIngestWorker(runtime: Runtime, services: Pick<Services, 'ingest'>, options: { concurrency?: number } = {}): IngestWorkerHandle {
  const { config, logger } = runtime;
  const connection = createRedis(config, 'worker', 'ingest-worker');
  const worker = new Worker<IngestJobData, IngestJobResult, IngestJobName>(INGEST_QUEUE, createIngestProcessor(runtime.db, services.ingest, logger), {
    connection,
    prefix: config.redisKeyPrefix,
    concurrency: options.concurrency ?? config.ingestConcurrency,
  });
  worker.on('failed', (job, error) => logger.warn({ jobId: job?.id, attemptsMade: job?.attemptsMade, err: error }, 'ingest job failed'));
  worker.on('error', (error) => logger.error({ err: error }, 'ingest worker error'));
  return {
    worker,
    async close() {
      await worker.close();
      await connection.quit().catch(() => connection.disconnect());
    },
  };
}
