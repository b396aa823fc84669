import { MetricsTime, Worker, type ConnectionOptions } from 'bullmq';
import {
  MicroBatcher,
  closeRedis,
  closeWithin,
  settleWithin,
  createRedis,
  type Config,
  type Database,
  type Logger,
  queuePrefix,
  queueTelemetry,
  unredactedChild,
} from '@wms/platform';
import {
  AttemptPermits,
  WEBHOOK_DELIVERY_JOB,
  DeliveryEnqueuer,
  OutboxRelay,
  SubscriptionSlots,
  WEBHOOK_DELIVERY_QUEUE,
  type WebhookDeliveryJobName,
  type WebhookDeliveryJobResult,
  type WebhookDeliveryPayload,
  type WebhookDeliveryQueue,
} from '@wms/webhooks';
import type { FollowUpJob } from './attempts.js';
import { deliveryBackoff, deliveryProcessor } from './delivery.processor.js';
import { createWebhookWorkerServices } from './services.js';

/** How long a dead worker's delivery stays locked, and how often workers look for such deliveries. */
export const WEBHOOK_LOCK_MS = 10_000;
export const WEBHOOK_STALLED_CHECK_MS = 5_000;

export interface WebhookWorkerOptions {
  /** The worker's Redis (blocking commands; maxRetriesPerRequest null). */
  connection: ConnectionOptions;
  /** Where the relay and the batches' follow-up jobs enqueue; defaults to a fail-fast producer connection to REDIS_URL. */
  relayRedisUrl?: string;
  relayPollIntervalMs?: number;
  /** How often the relay looks up long-pending deliveries in Redis again (default 60 s). */
  relayRecheckIntervalMs?: number;
  /** Run the relay in this process (default true). */
  relay?: boolean;
  /** BullMQ lock settings; tests shorten them to see a killed worker's job come back quickly. */
  lockDurationMs?: number;
  stalledIntervalMs?: number;
}

export interface WebhookWorker {
  relay: OutboxRelay | undefined;
  worker: Worker<WebhookDeliveryPayload, WebhookDeliveryJobResult, WebhookDeliveryJobName>;
  /** Graceful: relay, then worker (waits for attempts in flight), then the relay's queue and connection. `force` does not wait. */
  close(force?: boolean): Promise<void>;
}

/**
 * The webhook worker: the outbox relay plus the delivery worker. WEBHOOK_CONCURRENCY deliveries run at
 * once, each bounded by WEBHOOK_TIMEOUT_MS, so a slow or dead subscriber holds one slot, not the queue.
 */
export function startWebhookWorker(
  config: Config,
  db: Database,
  logger: Logger,
  options: WebhookWorkerOptions,
): WebhookWorker {
  // A fail-fast producer connection: the relay's jobs, the follow-up jobs of batched deliveries, the paces.
  const producerRedis = createRedis(
    options.relayRedisUrl ? { redisUrl: options.relayRedisUrl } : config,
    'producer',
    'webhook-relay',
  );
  const { delivery, queue } = createWebhookWorkerServices(config, db, producerRedis);
  let relay: OutboxRelay | undefined;
  if (options.relay !== false) {
    relay = new OutboxRelay(db, new DeliveryEnqueuer(db, queue), logger, {
      pollIntervalMs: options.relayPollIntervalMs,
      recheckIntervalMs: options.relayRecheckIntervalMs,
      listenDatabase: config,
    });
    relay.start(producerRedis);
  }

  const worker = new Worker<WebhookDeliveryPayload, WebhookDeliveryJobResult, WebhookDeliveryJobName>(
    WEBHOOK_DELIVERY_QUEUE,
    deliveryProcessor({
      delivery,
      // Its only lines are the attempt lines, whose fields it sets itself and none of which holds a secret:
      // no redaction pass, which cost about half of each line.
      logger: unredactedChild(logger),
      slots: new SubscriptionSlots({
        perSlowSubscription: config.webhook.concurrencyPerSlowSubscription,
        attemptTimeoutMs: config.webhook.timeoutMs,
      }),
      permits: new AttemptPermits(config.webhook.concurrency),
      followUp: followUps(queue),
    }),
    {
      connection: options.connection,
      prefix: queuePrefix(config),
      concurrency: config.webhook.concurrency,
      telemetry: queueTelemetry(),
      // A live worker renews its locks every lockDuration / 2, however long an attempt takes, so the lock only
      // has to outlast a stalled event loop. A worker that died (kill -9, OOM) leaves its deliveries locked for
      // at most the lock plus one stalled check: they are attempted again within about 15 s, not a minute. A
      // false stall (an event loop blocked for 10 s, a Redis frozen longer than the lock) repeats an attempt:
      // delivery is at least once, and the older attempt's late answer cannot overwrite the newer state.
      lockDuration: options.lockDurationMs ?? WEBHOOK_LOCK_MS,
      stalledInterval: options.stalledIntervalMs ?? WEBHOOK_STALLED_CHECK_MS,
      maxStalledCount: 3,
      settings: { backoffStrategy: deliveryBackoff(config.webhook.backoffBaseMs) },
      // BullMQ's completed/failed totals, which its Prometheus export reads; it also reads every kept
      // per-minute point on each scrape, so only the last hour's are kept (the totals are unaffected).
      metrics: { maxDataPoints: MetricsTime.ONE_HOUR },
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
        await closeWithin(worker, undefined, force);
        // After the worker: no attempt still publishes on a broker connection being closed.
        await settleWithin(delivery.close(), 2_000);
        await closeWithin(queue, 2_000);
        await closeRedis(producerRedis);
      })();
      return closing;
    },
  };
}

/** Adds the follow-up jobs of one event-loop turn in one round trip to Redis. */
function followUps(queue: WebhookDeliveryQueue): (job: FollowUpJob) => Promise<void> {
  const adds = new MicroBatcher<FollowUpJob, void>(async (jobs) => {
    await queue.addBulk(
      jobs.map((job) => ({
        name: WEBHOOK_DELIVERY_JOB,
        data: { deliveryId: job.deliveryId, subscriptionId: job.subscriptionId, attemptsBefore: job.attemptsBefore },
        opts: { jobId: job.jobId, delay: job.delayMs },
      })),
    );
    return jobs.map(() => undefined);
  });
  return (job) => adds.submit(job);
}
