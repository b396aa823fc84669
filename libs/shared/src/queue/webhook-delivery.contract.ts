import { Joi } from '../validation/index.js';
import { Queue, type ConnectionOptions } from 'bullmq';
import { defaultJobOptions } from './queues.js';

/**
 * The webhook delivery queue: one job per delivery (one event to one subscription). The payload is the
 * delivery and subscription ids only; the worker reads URL, secret and body from PostgreSQL, so no secret
 * sits in Redis.
 */
export const WEBHOOK_DELIVERY_QUEUE = 'webhook-delivery';
export const WEBHOOK_DELIVERY_JOB = 'deliver';
/** The custom backoff strategy's name (the worker registers it). */
export const WEBHOOK_BACKOFF_TYPE = 'webhook';

export interface WebhookDeliveryJobData {
  deliveryId: string;
  /**
   * The subscription delivered to, so a worker can cap how many of one subscriber's deliveries it runs at
   * once. Absent in jobs queued before it was added; those are not capped.
   */
  subscriptionId?: string;
}

export interface WebhookDeliveryJobResult {
  outcome: 'succeeded' | 'skipped';
  statusCode?: number;
}

export type WebhookDeliveryJobName = typeof WEBHOOK_DELIVERY_JOB;
export type WebhookDeliveryQueue = Queue<WebhookDeliveryJobData, WebhookDeliveryJobResult, WebhookDeliveryJobName>;

export const webhookDeliveryJobSchema = Joi.object<WebhookDeliveryJobData>({
  deliveryId: Joi.string().uuid().required(),
  subscriptionId: Joi.string().uuid(),
});

/**
 * The job id of a delivery run: event id + subscription id (+ `.r<n>` for the n-th redelivery), so
 * enqueueing the same delivery twice (two relay passes, two relays, a relay and the gateway) adds one job.
 */
export function deliveryJobId(row: { eventId: string; subscriptionId: string; generation: number }): string {
  const base = `${row.eventId}.${row.subscriptionId}`;
  return row.generation === 0 ? base : `${base}.r${row.generation}`;
}

export function createWebhookDeliveryQueue(
  connection: ConnectionOptions,
  prefix: string,
  maxAttempts: number,
): WebhookDeliveryQueue {
  return new Queue<WebhookDeliveryJobData, WebhookDeliveryJobResult, WebhookDeliveryJobName>(WEBHOOK_DELIVERY_QUEUE, {
    connection,
    prefix,
    // A finished delivery's record is its row and attempts in PostgreSQL; keeping the job in Redis as well
    // only cost a sorted-set write and trim per delivery. A job id enqueued again after its job is gone
    // runs and is skipped, since the delivery is no longer pending.
    defaultJobOptions: {
      ...defaultJobOptions,
      removeOnComplete: true,
      attempts: maxAttempts,
      backoff: { type: WEBHOOK_BACKOFF_TYPE },
    },
  });
}
