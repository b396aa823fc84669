import type { Server } from 'node:http';
import { installShutdown, loadConfig, openRuntime, startHealthServer, waitForDependencies } from '@wms/shared';

const config = loadConfig();
const runtime = openRuntime(config, { name: 'ingest-worker', redisRole: 'worker' });
const { logger } = runtime;

let healthServer: Server | undefined;

installShutdown(logger, config.shutdownTimeoutMs, async () => {
  healthServer?.close();
  await runtime.close();
});

await waitForDependencies(runtime.db.sequelize, runtime.redis, {
  onWait: (health) => logger.warn({ health }, 'waiting for PostgreSQL and Redis'),
});
if (config.workerHealthPort) healthServer = await startHealthServer(config.workerHealthPort, runtime.db.sequelize, runtime.redis);
logger.info('ingest-worker started');
