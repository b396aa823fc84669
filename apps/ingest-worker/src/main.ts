import type { Server } from 'node:http';
import {
  closeWithin,
  installShutdown,
  loadConfigOrExit,
  openRuntime,
  queuePrefix,
  startHealthServer,
  waitForDependencies,
} from '@wms/platform';
import { ingestProcessMetrics } from '@wms/setup';
import { RetentionSweeper } from '@wms/setup';
import { createIngestServices } from './services.js';
import { ImportsRepository, createIngestQueue, type IngestQueue } from '@wms/ingest';
import { startIngestWorker, type IngestWorkerHandle } from './ingest.worker.js';

const config = loadConfigOrExit();
const runtime = openRuntime(config, { name: 'ingest-worker', redisRole: 'worker' });
const services = createIngestServices(runtime.db, config);
const { logger } = runtime;

/**
 * Retention (expired Idempotency-Key records, finished bulk jobs, delivered events, old audit entries) runs
 * here, off the request path, in small batches; several workers may do it (SKIP LOCKED).
 */
const PURGE_INTERVAL_MS = 10 * 60_000;

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
const retention = new RetentionSweeper(runtime.db, config, services.idempotency, logger);
const imports = new ImportsRepository(runtime.db, config.databaseUrl);

/** Staged and failed rows of imports finished longer ago than IMPORT_RETENTION_SECONDS, a bounded number per pass. */
async function purgeImports(): Promise<void> {
  for (let pass = 0; pass < 100 && (await imports.purgeOne(config.imports.retentionSeconds, 50_000)); pass += 1);
}
let sweeping = false;
purgeTimer = setInterval(() => {
  if (sweeping) return;
  sweeping = true;
  void retention
    .sweep()
    .then(purgeImports)
    .catch((error: unknown) => logger.warn({ err: error }, 'purging finished imports failed'))
    .finally(() => {
      sweeping = false;
    });
}, PURGE_INTERVAL_MS);
purgeTimer.unref();
logger.info({ concurrency: config.ingestConcurrency }, 'ingest-worker started');
