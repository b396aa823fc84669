import type { Server } from 'node:http';
import {
  claimKeySpaceAtStart,
  closeWithin,
  installShutdown,
  loadConfigOrExit,
  openRuntime,
  startHealthServer,
  waitForDependencies,
} from '@wms/platform';
import { ingestProcessMetrics, type Maintenance } from '@wms/setup';
import type { IngestQueue } from '@wms/ingest';
import { createIngestServices, createMetricsQueue, startIngestMaintenance } from './services.js';
import { startIngestWorker, type IngestWorkerHandle } from './ingest.worker.js';

const config = loadConfigOrExit();
const runtime = openRuntime(config, { name: 'ingest-worker', redisRole: 'worker', databaseWork: 'jobs' });
const services = createIngestServices(runtime.db, config);
const { logger } = runtime;

let healthServer: Server | undefined;
let ingest: IngestWorkerHandle | undefined;
let maintenance: Maintenance | undefined;
let metricsQueue: IngestQueue | undefined;

// Workers first (active jobs finish), then Redis and the database.
installShutdown(logger, config.shutdownTimeoutMs, async () => {
  healthServer?.close();
  await ingest?.close();
  await maintenance?.close();
  if (metricsQueue) await closeWithin(metricsQueue, 2_000);
  await runtime.close();
});

await waitForDependencies(runtime.db.sequelize, runtime.redis, {
  onWait: (health) => logger.warn({ health }, 'waiting for PostgreSQL and Redis'),
});
// Before any job is taken: a key space another database holds ends the process (REDIS_KEY_PREFIX).
await claimKeySpaceAtStart(runtime.keySpace, logger);
metricsQueue = createMetricsQueue(runtime, config);
if (config.workerHealthPort)
  healthServer = await startHealthServer(config.workerHealthPort, runtime.db.sequelize, runtime.redis, {
    metrics: ingestProcessMetrics([metricsQueue]),
    token: config.metricsToken,
    keySpace: runtime.keySpace,
  });
ingest = startIngestWorker(runtime, services);
maintenance = await startIngestMaintenance(runtime, config);
logger.info({ concurrency: config.ingestConcurrency }, 'ingest-worker started');
