import { Worker, type Job } from 'bullmq';
import {
  caller,
  closeRedis,
  closeWithin,
  createRedis,
  queuePrefix,
  queueTelemetry,
  runWithContext,
  type CallerWrites,
  type Runtime,
} from '@wms/platform';
import type { IngestServices } from './services.js';
import {
  IMPORTS_QUEUE,
  IMPORT_WORKER_LOCKS,
  ImportDispatcher,
  ImportRunner,
  ImportsRepository,
  addNextTurn,
  createImportsQueue,
  type IMPORT_JOB_NAME,
  type ImportTurnData,
  type ImportsQueue,
  type StoredImport,
} from '@wms/ingest';

export type ImportTurn = Job<ImportTurnData, void, typeof IMPORT_JOB_NAME>;

export interface ImportsWorkerHandle {
  worker: Worker<ImportTurnData, void, typeof IMPORT_JOB_NAME>;
  close(): Promise<void>;
}

/**
 * One turn of a tenant: one chunk of one of its imports written, then the tenant's next turn is added at
 * the end of the imports queue, so every tenant gets its chunk in turn. A turn that finds no chunk left ends
 * its chain.
 */
export function createImportProcessor(runner: ImportRunner, queue: ImportsQueue) {
  return async (job: ImportTurn): Promise<void> => {
    const { tenantId, slot } = job.data;
    const outcome = await runWithContext({ requestId: job.id!, jobId: job.id! }, () => runner.runTurn(tenantId, slot));
    if (outcome === 'written') await addNextTurn(queue, job.data);
  };
}

/**
 * Consumes the imports queue, IMPORT_CONCURRENCY chunks at a time, beside (not in) the ingest queue's bulk
 * jobs; and keeps every unfinished import's turns in the queue.
 */
export function startImportsWorker(
  runtime: Runtime,
  services: Pick<IngestServices, 'ingest' | 'events'>,
  callerWrites: CallerWrites | null = null,
): ImportsWorkerHandle {
  const { config, logger } = runtime;
  const repository = new ImportsRepository(runtime.db, config.databaseUrl);
  // With read replicas, each committed chunk becomes its owner's last write, so the key (or user) that
  // imported reads its rows at once, as after a bulk job.
  const afterChunk = callerWrites
    ? (job: StoredImport) =>
        callerWrites
          .afterWrite(job.apiKeyId ? caller.apiKey(job.apiKeyId) : caller.user(job.userId!))
          .catch((error: unknown) =>
            logger.warn({ err: error, importId: job.id }, "the owner's write position was not stored after a chunk"),
          )
    : null;
  const runner = new ImportRunner(
    runtime.db,
    services.ingest,
    repository,
    services.events,
    config.imports.tenantConcurrency,
    afterChunk,
  );
  const connection = createRedis(config, 'worker', 'imports-worker');
  const prefix = queuePrefix(config);
  const queue = createImportsQueue({ connection: runtime.redis, prefix });
  queue.on('error', () => undefined);
  const worker = new Worker<ImportTurnData, void, typeof IMPORT_JOB_NAME>(
    IMPORTS_QUEUE,
    createImportProcessor(runner, queue),
    {
      connection,
      prefix,
      concurrency: config.imports.concurrency,
      ...IMPORT_WORKER_LOCKS,
      telemetry: queueTelemetry(),
    },
  );
  worker.on('failed', (job, error) =>
    logger.warn({ jobId: job?.id, tenantId: job?.data.tenantId, err: error }, 'import turn failed'),
  );
  worker.on('error', (error) => logger.error({ err: error }, 'imports worker error'));
  const dispatcher = new ImportDispatcher(repository, queue, logger, config.imports.tenantConcurrency);
  dispatcher.start();
  return {
    worker,
    async close() {
      await dispatcher.stop();
      await closeWithin(worker, undefined);
      await closeWithin(queue, 2_000);
      await closeRedis(connection);
    },
  };
}
