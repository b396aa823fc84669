import type { Server } from 'node:http';
import { createServices, installShutdown, loadConfig, openRuntime, startHealthServer, waitForDependencies } from '@wms/shared';
import { startIngestWorker, type IngestWorkerHandle } from './ingest.worker.js';

const config = loadConfig();
const runtime = openRuntime(config, { name: 'ingest-worker', redisRole: 'worker' });
const services = createServices(runtime.db, config);
const { logger } = runtime;

/** Expired Idempotency-Key records are deleted here, off the request path; several workers may do it. */
const PURGE_INTERVAL_MS = 10 * 60_000;

let healthServer: Server | undefined;
let ingest: IngestWorkerHandle | undefined;
let purgeTimer: NodeJS.Timeout | undefined;

// Worker first (active jobs finish), then Redis and the database.
installShutdown(logger, config.shutdownTimeoutMs, async () => {
  clearInterval(purgeTimer);
  healthServer?.close();
  await ingest?.close();
  await runtime.close();
});

await waitForDependencies(runtime.db.sequelize, runtime.redis, {
  onWait: (health) => logger.warn({ health }, 'waiting for PostgreSQL and Redis'),
});
if (config.workerHealthPort) healthServer = await startHealthServer(config.workerHealthPort, runtime.db.sequelize, runtime.redis);
ingest = startIngestWorker(runtime, services);
purgeTimer = setInterval(() => {
  services.idempotency.purgeExpired().catch((error: unknown) => logger.warn({ err: error }, 'purging idempotency records failed'));
}, PURGE_INTERVAL_MS);
purgeTimer.unref();
logger.info({ concurrency: config.ingestConcurrency }, 'ingest-worker started');
