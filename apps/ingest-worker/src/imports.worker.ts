import { Worker, type Job } from 'bullmq';
import {
  closeRedis,
  closeWithin,
  createRedis,
  queuePrefix,
  queueTelemetry,
  runWithContext,
  type TenantWrites,
  type Runtime,
} from '@wms/platform';
import type { IngestServices } from './services.js';
import {
  IMPORTS_QUEUE,
  IMPORT_WORKER_LOCKS,
  ImportRunner,
  ImportTurns,
  ImportTurnsRepository,
  ImportsRepository,
  createImportDispatcher,
  createImportsQueue,
  type IMPORT_JOB_NAME,
  type ImportChunkData,
  type StoredImport,
} from '@wms/ingest';

export type ImportChunkJob = Job<ImportChunkData, void, typeof IMPORT_JOB_NAME>;

export interface ImportsWorkerHandle {
  worker: Worker<ImportChunkData, void, typeof IMPORT_JOB_NAME>;
  close(): Promise<void>;
}

/**
 * One chunk of one import written; the tenant's next chunks, queued at its turns in the chunk's transaction,
 * are then handed to the imports queue.
 */
export function createImportProcessor(runner: ImportRunner, turns: ImportTurns) {
  return async (job: ImportChunkJob): Promise<void> => {
    // A turn of the chains that came before chunk jobs (data without importId): nothing to write; the
    // dispatcher queues its tenant's chunks.
    if (typeof job.data.importId !== 'string') return;
    const queued = await runWithContext({ requestId: job.id!, jobId: job.id! }, () => runner.runChunk(job.data));
    await turns.hand(queued);
  };
}

/**
 * Consumes the imports queue, IMPORT_CONCURRENCY chunks at a time, beside (not in) the ingest queue's bulk
 * jobs; and keeps every queued chunk in the queue.
 */
export function startImportsWorker(
  runtime: Runtime,
  services: Pick<IngestServices, 'ingest' | 'events'>,
  tenantWrites: TenantWrites | null = null,
): ImportsWorkerHandle {
  const { config, logger } = runtime;
  const chains = config.imports.tenantConcurrency;
  const repository = new ImportsRepository(runtime.db, config);
  const turnsRepository = new ImportTurnsRepository(runtime.db);
  // With read replicas, each committed chunk becomes its tenant's last write, so every caller of the tenant
  // reads its rows at once, as after a bulk job.
  const afterChunk = tenantWrites
    ? (job: StoredImport) =>
        tenantWrites
          .afterWrite(job.tenantId)
          .catch((error: unknown) =>
            logger.warn({ err: error, importId: job.id }, "the tenant's write position was not stored after a chunk"),
          )
    : null;
  const runner = new ImportRunner(
    runtime.db,
    services.ingest,
    repository,
    turnsRepository,
    services.events,
    chains,
    afterChunk,
  );
  const connection = createRedis(config, 'worker', 'imports-worker');
  const prefix = queuePrefix(config);
  const queue = createImportsQueue({ connection: runtime.redis, prefix });
  queue.on('error', () => undefined);
  const turns = new ImportTurns(runtime.db, turnsRepository, queue, chains);
  const worker = new Worker<ImportChunkData, void, typeof IMPORT_JOB_NAME>(
    IMPORTS_QUEUE,
    createImportProcessor(runner, turns),
    {
      connection,
      prefix,
      concurrency: config.imports.concurrency,
      ...IMPORT_WORKER_LOCKS,
      telemetry: queueTelemetry(),
    },
  );
  worker.on('failed', (job, error) =>
    logger.warn({ jobId: job?.id, tenantId: job?.data.tenantId, err: error }, 'import chunk failed'),
  );
  worker.on('error', (error) => logger.error({ err: error }, 'imports worker error'));
  const dispatcher = createImportDispatcher(runtime.db, turnsRepository, queue, logger, chains);
  dispatcher.start(runtime.redis);
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
