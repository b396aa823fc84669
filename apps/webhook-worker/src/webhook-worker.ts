import { Worker, type ConnectionOptions } from 'bullmq';
import {
  closeRedis,
  settleWithin,
  DeliveryEnqueuer,
  OutboxRelay,
  SecretBox,
  SubscriptionSlots,
  WEBHOOK_DELIVERY_QUEUE,
  WebhookDeliveryService,
  createRedis,
  createWebhookDeliveryQueue,
  type Config,
  type Database,
  type Logger,
  type WebhookDeliveryJobData,
  type WebhookDeliveryJobName,
  type WebhookDeliveryJobResult,
} from '@wms/shared';
import { deliveryBackoff, deliveryProcessor } from './delivery.processor.js';

export interface WebhookWorkerOptions {
  /** The worker's Redis (blocking commands; maxRetriesPerRequest null). */
  connection: ConnectionOptions;
  /** Where the relay enqueues; defaults to a fail-fast producer connection to REDIS_URL. */
  relayRedisUrl?: string;
  relayPollIntervalMs?: number;
  /** Run the relay in this process (default true). */
  relay?: boolean;
  /** BullMQ lock settings; tests shorten them to see a killed worker's job come back quickly. */
  lockDurationMs?: number;
  stalledIntervalMs?: number;
}

export interface WebhookWorker {
  relay: OutboxRelay | undefined;
  worker: Worker<WebhookDeliveryJobData, WebhookDeliveryJobResult, WebhookDeliveryJobName>;
  /** Graceful: relay, then worker (waits for attempts in flight), then the relay's queue and connection. `force` does not wait. */
  close(force?: boolean): Promise<void>;
}

/**
 * The webhook worker: the outbox relay plus the delivery worker. WEBHOOK_CONCURRENCY deliveries run at
 * once, each bounded by WEBHOOK_TIMEOUT_MS, so a slow or dead subscriber holds one slot, not the queue.
 */
export function startWebhookWorker(config: Config, db: Database, logger: Logger, options: WebhookWorkerOptions): WebhookWorker {
  const secrets = new SecretBox(config.jwt.secret);
  const delivery = new WebhookDeliveryService(db, config.webhook, secrets);

  let relay: OutboxRelay | undefined;
  const relayRedis = options.relay === false ? undefined : createRedis({ redisUrl: options.relayRedisUrl ?? config.redisUrl }, 'producer', 'webhook-relay');
  const relayQueue = relayRedis ? createWebhookDeliveryQueue(relayRedis, config.redisKeyPrefix, config.webhook.maxAttempts) : undefined;
  relayQueue?.on('error', () => undefined); // reported by the relay's own pass errors
  if (relayQueue) {
    relay = new OutboxRelay(db, new DeliveryEnqueuer(db, relayQueue), logger, {
      pollIntervalMs: options.relayPollIntervalMs,
      listenDatabaseUrl: config.databaseUrl,
    });
    relay.start();
  }

  const worker = new Worker<WebhookDeliveryJobData, WebhookDeliveryJobResult, WebhookDeliveryJobName>(
    WEBHOOK_DELIVERY_QUEUE,
    deliveryProcessor(
      delivery,
      logger,
      new SubscriptionSlots({ perSlowSubscription: config.webhook.concurrencyPerSlowSubscription, attemptTimeoutMs: config.webhook.timeoutMs }),
    ),
    {
      connection: options.connection,
      prefix: config.redisKeyPrefix,
      concurrency: config.webhook.concurrency,
      // A job runs at most one attempt (≤ WEBHOOK_TIMEOUT_MS) plus two short queries; the lock outlives that.
      lockDuration: options.lockDurationMs ?? Math.max(30_000, config.webhook.timeoutMs * 2),
      stalledInterval: options.stalledIntervalMs ?? 30_000,
      maxStalledCount: 3,
      settings: { backoffStrategy: deliveryBackoff(config.webhook.backoffBaseMs) },
    },
  );
  worker.on('error', (error) => logger.warn({ err: error }, 'webhook worker error'));

  let closing: Promise<void> | undefined;
  return {
    relay,
    worker,
    close(force = false) {
      closing ??= (async () => {
        await relay?.stop();
        await worker.close(force);
        if (relayQueue) await settleWithin(relayQueue.close(), 2_000);
        if (relayRedis) await closeRedis(relayRedis);
      })();
      return closing;
    },
  };
}
