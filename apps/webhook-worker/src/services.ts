import { EdiDocumentSender, documentLookups } from '@wms/edi';
import { EventsService } from '@wms/events';
import { AuditService } from '@wms/identity';
import {
  openTenantWrites,
  queuePrefix,
  type Config,
  type Database,
  type RedisClient,
  type Runtime,
} from '@wms/platform';
import {
  DeliveryRepository,
  SecretBox,
  SubscriberGate,
  WebhookDeliveryService,
  WebhookLifecycleService,
  WebhooksService,
  createWebhookDeliveryQueue,
  type WebhookDeliveryQueue,
} from '@wms/webhooks';

/**
 * What the webhook worker runs: the delivery service (signing with the secret box, pacing slow subscribers
 * through Redis, disabling a subscription that answers 410 through the lifecycle service, writing a trading
 * partner's EDI advices for its `edi` subscription) and the delivery queue the relay and the follow-up jobs
 * add to, over the fail-fast producer connection.
 */
export function createWebhookWorkerServices(config: Config, db: Database, producerRedis: RedisClient) {
  const events = new EventsService(db);
  const lifecycle = new WebhookLifecycleService(
    db,
    new WebhooksService(db, config, new AuditService(db), events),
    events,
  );
  const delivery = new WebhookDeliveryService(
    db,
    config.webhook,
    SecretBox.fromConfig(config),
    (id, reason) => lifecycle.disableGone(id, reason),
    new SubscriberGate(producerRedis, config.redisKeyPrefix, new DeliveryRepository(db)),
    openTenantWrites({ config, db, redis: producerRedis }),
    new EdiDocumentSender(db, documentLookups(db)),
  );
  const queue = createWebhookDeliveryQueue(producerRedis, queuePrefix(config), config.webhook.maxAttempts);
  queue.on('error', () => undefined); // reported by the relay's pass errors and the batch jobs' failures
  return { delivery, queue };
}

export type WebhookWorkerServices = ReturnType<typeof createWebhookWorkerServices>;

/** A queue handle for the metrics only (job counts at scrape time); it shares the runtime's connection. */
export function createMetricsQueue(runtime: Runtime, config: Config): WebhookDeliveryQueue {
  const queue = createWebhookDeliveryQueue(runtime.redis, queuePrefix(config), config.webhook.maxAttempts);
  queue.on('error', () => undefined);
  return queue;
}
