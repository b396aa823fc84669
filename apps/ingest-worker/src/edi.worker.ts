import { UnrecoverableError, Worker, type Job } from 'bullmq';
import {
  closeRedis,
  closeWithin,
  createRedis,
  queuePrefix,
  queueTelemetry,
  runWithContext,
  type Runtime,
} from '@wms/platform';
import {
  CanonicalStillReading,
  EDI_QUEUE,
  EDI_WORKER_LOCKS,
  InboundEngine,
  InboundRepository,
  createEdiDispatcher,
  createEdiQueue,
  type EDI_JOB_NAME,
  type EdiJobData,
} from '@wms/edi';
import type { IngestServices } from './services.js';

export type EdiJob = Job<EdiJobData, void, typeof EDI_JOB_NAME>;

export interface EdiWorkerHandle {
  worker: Worker<EdiJobData, void, typeof EDI_JOB_NAME>;
  engine: InboundEngine;
  close(): Promise<void>;
}

/** One inbound interchange read by the engine; a resend of one still being read waits for it (a retry). */
export function createEdiProcessor(engine: InboundEngine) {
  return async (job: EdiJob): Promise<void> => {
    await runWithContext({ requestId: job.id!, jobId: job.id! }, async () => {
      try {
        await engine.process(job.data.interchangeId);
      } catch (error) {
        if (error instanceof CanonicalStillReading) throw error;
        if (error instanceof Error && /lost its partner or its bytes/.test(error.message))
          throw new UnrecoverableError(error.message);
        throw error;
      }
    });
  };
}

/**
 * Consumes the `edi` queue, EDI_CONCURRENCY interchanges at a time, beside the bulk jobs and imports, with
 * the same services (the ingest registry's orders and ASNs); and keeps every received interchange queued.
 */
export function startEdiWorker(runtime: Runtime, services: Pick<IngestServices, 'ingest'>): EdiWorkerHandle {
  const { config, logger } = runtime;
  const engine = new InboundEngine(runtime.db, services.ingest, logger);
  const connection = createRedis(config, 'worker', 'edi-worker');
  const prefix = queuePrefix(config);
  const queue = createEdiQueue({ connection: runtime.redis, prefix });
  queue.on('error', () => undefined);
  const worker = new Worker<EdiJobData, void, typeof EDI_JOB_NAME>(EDI_QUEUE, createEdiProcessor(engine), {
    connection,
    prefix,
    concurrency: config.ediConcurrency,
    ...EDI_WORKER_LOCKS,
    telemetry: queueTelemetry(),
  });
  worker.on('failed', (job, error) =>
    logger.warn({ jobId: job?.id, tenantId: job?.data.tenantId, err: error }, 'EDI interchange failed'),
  );
  worker.on('error', (error) => logger.error({ err: error }, 'EDI worker error'));
  const dispatcher = createEdiDispatcher(runtime.db, new InboundRepository(runtime.db), queue, logger);
  dispatcher.start(runtime.redis);
  return {
    worker,
    engine,
    async close() {
      await dispatcher.stop();
      await closeWithin(worker, undefined);
      await closeWithin(queue, 2_000);
      await closeRedis(connection);
    },
  };
}
