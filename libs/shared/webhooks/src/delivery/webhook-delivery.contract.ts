import { createHash } from 'node:crypto';
import { Joi } from '@wms/platform';
import { Queue, type ConnectionOptions } from 'bullmq';
import { defaultJobOptions, queueTelemetry } from '@wms/platform';

/**
 * The webhook delivery queue. A first attempt of freshly relayed deliveries travels as one `deliver-batch`
 * job per up to WEBHOOK_DELIVERY_BATCH deliveries; each delivery in it is attempted, recorded and settled on
 * its own, and one that must be tried again (a retry, or a slow subscriber's delivery over its share) goes
 * on as a `deliver` job of its own. A redelivery, a test, a recovered or replayed delivery, and a lone one
 * are `deliver` jobs from the start. Payloads are ids only; the worker reads URL, secret and body from
 * PostgreSQL, so no secret sits in Redis.
 */
export const WEBHOOK_DELIVERY_QUEUE = 'webhook-delivery';
export const WEBHOOK_DELIVERY_JOB = 'deliver';
export const WEBHOOK_DELIVERY_BATCH_JOB = 'deliver-batch';
/** Deliveries per batch job: a few round trips to Redis per batch instead of two scripts per delivery. */
export const WEBHOOK_DELIVERY_BATCH = 50;
/** The custom backoff strategy's name (the worker registers it). */
export const WEBHOOK_BACKOFF_TYPE = 'webhook';

export interface WebhookDeliveryJobData {
  deliveryId: string;
  /**
   * The subscription delivered to, so a worker can cap how many of one subscriber's deliveries it runs at
   * once. Absent in jobs queued before it was added; those are not capped.
   */
  subscriptionId?: string;
  /** Attempts of this run made before the job existed (a batch's first attempt); absent = 0. */
  attemptsBefore?: number;
}

/** One delivery of a batch job, as the relay queued it: its run (generation) and attempts so far. */
export interface BatchedDelivery {
  deliveryId: string;
  eventId: string;
  subscriptionId: string;
  generation: number;
  attempts: number;
}

export interface WebhookDeliveryBatchData {
  deliveries: BatchedDelivery[];
}

export type WebhookDeliveryPayload = WebhookDeliveryJobData | WebhookDeliveryBatchData;

export type WebhookDeliveryJobResult =
  | { outcome: 'succeeded' | 'skipped'; statusCode?: number }
  | { outcome: 'batch'; succeeded: number; retried: number; failed: number; skipped: number; deferred: number };

export type WebhookDeliveryJobName = typeof WEBHOOK_DELIVERY_JOB | typeof WEBHOOK_DELIVERY_BATCH_JOB;
export type WebhookDeliveryQueue = Queue<WebhookDeliveryPayload, WebhookDeliveryJobResult, WebhookDeliveryJobName>;

export const webhookDeliveryJobSchema = Joi.object<WebhookDeliveryJobData>({
  deliveryId: Joi.string().uuid().required(),
  subscriptionId: Joi.string().uuid(),
  attemptsBefore: Joi.number().integer().min(0),
});

export const webhookDeliveryBatchSchema = Joi.object<WebhookDeliveryBatchData>({
  deliveries: Joi.array()
    .items(
      Joi.object({
        deliveryId: Joi.string().uuid().required(),
        eventId: Joi.string().uuid().required(),
        subscriptionId: Joi.string().uuid().required(),
        generation: Joi.number().integer().min(0).required(),
        attempts: Joi.number().integer().min(0).required(),
      }),
    )
    .min(1)
    .required(),
});

/** The deliveries a job carries: one for `deliver`, several for `deliver-batch`. */
export function deliveryIdsOf(data: WebhookDeliveryPayload): string[] {
  return 'deliveries' in data ? data.deliveries.map((delivery) => delivery.deliveryId) : [data.deliveryId];
}

/**
 * A batch's job id, from the delivery rows and runs it carries: a relay pass repeated after a crash between
 * the add and its commit adds the same batch once more only if it groups the same deliveries.
 */
export function deliveryBatchJobId(
  deliveries: Array<{ id: string; eventId: string; subscriptionId: string; generation: number }>,
) {
  const hash = createHash('sha256');
  for (const delivery of deliveries) hash.update(delivery.id).update(deliveryJobId(delivery)).update('\n');
  return `batch.${hash.digest('hex').slice(0, 32)}`;
}

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
  return new Queue<WebhookDeliveryPayload, WebhookDeliveryJobResult, WebhookDeliveryJobName>(WEBHOOK_DELIVERY_QUEUE, {
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
    telemetry: queueTelemetry(),
  });
}
