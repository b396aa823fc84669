import type { Server } from 'node:http';
import { installShutdown, loadConfigOrExit, openRuntime, startHealthServer, waitForDependencies } from '@wms/shared';
import { startWebhookWorker, type WebhookWorker } from './webhook-worker.js';

const config = loadConfigOrExit();
const runtime = openRuntime(config, { name: 'webhook-worker', redisRole: 'worker' });
const { logger } = runtime;

let healthServer: Server | undefined;
let webhookWorker: WebhookWorker | undefined;

// Relay, then worker (attempts in flight finish), then queues, Redis, database.
installShutdown(logger, config.shutdownTimeoutMs, async () => {
  healthServer?.close();
  await webhookWorker?.close();
  await runtime.close();
});

await waitForDependencies(runtime.db.sequelize, runtime.redis, {
  onWait: (health) => logger.warn({ health }, 'waiting for PostgreSQL and Redis'),
});
webhookWorker = startWebhookWorker(config, runtime.db, logger, { connection: runtime.redis });
if (config.workerHealthPort) healthServer = await startHealthServer(config.workerHealthPort, runtime.db.sequelize, runtime.redis);
logger.info({ concurrency: config.webhook.concurrency }, 'webhook-worker started');
