import { DelayedError, UnrecoverableError, type BackoffStrategy, type Job, type Processor } from 'bullmq';
import {
  backoffDelay,
  runWithContext,
  webhookDeliveryJobSchema,
  type Logger,
  type SubscriptionSlots,
  type WebhookDeliveryJobData,
  type WebhookDeliveryJobName,
  type WebhookDeliveryJobResult,
  type WebhookDeliveryService,
} from '@wms/shared';

/** A failed attempt that should be retried after `delayMs` (computed with the attempt, Retry-After included). */
export class DeliveryRetryError extends Error {
  override name = 'DeliveryRetryError';

  constructor(
    message: string,
    readonly delayMs: number,
  ) {
    super(message);
  }
}

type DeliveryJob = Job<WebhookDeliveryJobData, WebhookDeliveryJobResult, WebhookDeliveryJobName>;

/**
 * Turns one attempt's outcome into BullMQ's terms: return = done, DeliveryRetryError = retry, UnrecoverableError
 * = failed. A delivery whose subscription already has its share of this worker's slots is put back as
 * delayed (not an attempt) and runs when a slot of its subscription is free.
 */
export function deliveryProcessor(
  delivery: WebhookDeliveryService,
  logger: Logger,
  slots: SubscriptionSlots,
): Processor<WebhookDeliveryJobData, WebhookDeliveryJobResult, WebhookDeliveryJobName> {
  return (job: DeliveryJob, token?: string) =>
    runWithContext({ requestId: job.id ?? 'job', jobId: job.id }, async (): Promise<WebhookDeliveryJobResult> => {
      const { error, value } = webhookDeliveryJobSchema.validate(job.data);
      if (error) throw new UnrecoverableError(`invalid job payload: ${error.message}`);
      const slot = value.subscriptionId ? slots.take(value.subscriptionId) : undefined;
      if (slot && !slot.taken) {
        await job.moveToDelayed(Date.now() + slot.retryInMs, token);
        throw new DelayedError();
      }
      const outcome = await delivery.attempt(value.deliveryId, job.id!, job.attemptsMade + 1).finally(() => slot?.release());
      switch (outcome.kind) {
        case 'succeeded':
          return { outcome: 'succeeded', statusCode: outcome.statusCode };
        case 'skipped':
          logger.debug({ deliveryId: value.deliveryId, reason: outcome.reason }, 'delivery skipped');
          return { outcome: 'skipped' };
        case 'retry':
          throw new DeliveryRetryError(outcome.error, outcome.delayMs);
        case 'failed':
          logger.info({ deliveryId: value.deliveryId, error: outcome.error }, 'delivery failed');
          throw new UnrecoverableError(outcome.error);
      }
    });
}

/** The queue's custom backoff: the delay the attempt computed, or base·2^(n-1) with jitter when none. */
export function deliveryBackoff(baseMs: number): BackoffStrategy {
  return (attemptsMade, _type, error) => (error instanceof DeliveryRetryError ? error.delayMs : backoffDelay(attemptsMade, baseMs));
}
