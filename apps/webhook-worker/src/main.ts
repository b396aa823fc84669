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
import { OutboundRepository } from '@wms/edi';
import { webhookProcessMetrics } from '@wms/setup';
import { readOutboxStats, type WebhookDeliveryQueue } from '@wms/webhooks';
import { createMetricsQueue } from './services.js';
import { startWebhookWorker, type WebhookWorker } from './webhook-worker.js';

const config = loadConfigOrExit();
const runtime = openRuntime(config, { name: 'webhook-worker', redisRole: 'worker', databaseWork: 'jobs' });
const { logger } = runtime;

let healthServer: Server | undefined;
let webhookWorker: WebhookWorker | undefined;
let metricsQueue: WebhookDeliveryQueue | undefined;

// Relay, then worker (attempts in flight finish), then queues, Redis, database.
installShutdown(logger, config.shutdownTimeoutMs, async () => {
  healthServer?.close();
  await webhookWorker?.close();
  if (metricsQueue) await closeWithin(metricsQueue, 2_000);
  await runtime.close();
});

await waitForDependencies(runtime.db.sequelize, runtime.redis, {
  onWait: (health) => logger.warn({ health }, 'waiting for PostgreSQL and Redis'),
});
// Before any job is taken: a key space another database holds ends the process (REDIS_KEY_PREFIX).
await claimKeySpaceAtStart(runtime.keySpace, logger);
webhookWorker = startWebhookWorker(config, runtime.db, logger, { connection: runtime.redis });
metricsQueue = createMetricsQueue(runtime, config);
if (config.workerHealthPort)
  healthServer = await startHealthServer(config.workerHealthPort, runtime.db.sequelize, runtime.redis, {
    metrics: webhookProcessMetrics(
      [metricsQueue],
      () => readOutboxStats(runtime.db),
      () => new OutboundRepository(runtime.db).unacknowledgedCounts(),
    ),
    token: config.metricsToken,
    keySpace: runtime.keySpace,
  });
logger.info({ concurrency: config.webhook.concurrency }, 'webhook-worker started');
