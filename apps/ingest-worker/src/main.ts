import type { Server } from 'node:http';
import {
  closeWithin,
  BulkJobsRepository,
  ImportsRepository,
  createIngestQueue,
  createServices,
  ingestProcessMetrics,
  installShutdown,
  loadConfigOrExit,
  openRuntime,
  queuePrefix,
  startHealthServer,
  waitForDependencies,
  type IngestQueue,
} from '@wms/shared';
import { startIngestWorker, type IngestWorkerHandle } from './ingest.worker.js';

const config = loadConfigOrExit();
const runtime = openRuntime(config, { name: 'ingest-worker', redisRole: 'worker' });
const services = createServices(runtime.db, config);
const { logger } = runtime;

/**
 * Expired Idempotency-Key records and bulk jobs finished longer ago than BULK_JOB_RETENTION_SECONDS are
 * deleted here, off the request path; several workers may do it.
 */
const PURGE_INTERVAL_MS = 10 * 60_000;

const PURGE_BATCH = 1_000;

/** Deletes in bounded batches until a batch comes back short. */
async function purgeAll(purge: () => Promise<number>): Promise<void> {
  while ((await purge()) === PURGE_BATCH);
}

let healthServer: Server | undefined;
let ingest: IngestWorkerHandle | undefined;
let purgeTimer: NodeJS.Timeout | undefined;
let metricsQueue: IngestQueue | undefined;

// Worker first (active jobs finish), then Redis and the database.
installShutdown(logger, config.shutdownTimeoutMs, async () => {
  clearInterval(purgeTimer);
  healthServer?.close();
  await ingest?.close();
  if (metricsQueue) await closeWithin(metricsQueue, 2_000);
  await runtime.close();
});

await waitForDependencies(runtime.db.sequelize, runtime.redis, {
  onWait: (health) => logger.warn({ health }, 'waiting for PostgreSQL and Redis'),
});
// A queue handle for the metrics only (job counts at scrape time); it shares the runtime's connection.
metricsQueue = createIngestQueue({ connection: runtime.redis, prefix: queuePrefix(config) });
metricsQueue.on('error', () => undefined);
if (config.workerHealthPort)
  healthServer = await startHealthServer(config.workerHealthPort, runtime.db.sequelize, runtime.redis, {
    metrics: ingestProcessMetrics([metricsQueue]),
    token: config.metricsToken,
  });
ingest = startIngestWorker(runtime, services);
const bulkJobs = new BulkJobsRepository(runtime.db);
const imports = new ImportsRepository(runtime.db, config.databaseUrl);

/** Staged and failed rows of imports finished longer ago than IMPORT_RETENTION_SECONDS, a bounded number per pass. */
async function purgeImports(): Promise<void> {
  for (let pass = 0; pass < 100 && (await imports.purgeOne(config.imports.retentionSeconds, 50_000)); pass += 1);
}
purgeTimer = setInterval(() => {
  services.idempotency
    .purgeExpired()
    .catch((error: unknown) => logger.warn({ err: error }, 'purging idempotency records failed'));
  purgeAll(() => bulkJobs.purgeFinished(config.bulkJobRetentionSeconds, PURGE_BATCH)).catch((error: unknown) =>
    logger.warn({ err: error }, 'purging finished bulk jobs failed'),
  );
  purgeImports().catch((error: unknown) => logger.warn({ err: error }, 'purging finished imports failed'));
}, PURGE_INTERVAL_MS);
purgeTimer.unref();
logger.info({ concurrency: config.ingestConcurrency }, 'ingest-worker started');
