import { DelayedError, UnrecoverableError, type BackoffStrategy, type Job, type Processor } from 'bullmq';
import { runWithContext } from '@wms/platform';
import {
  WEBHOOK_DELIVERY_BATCH_JOB,
  backoffDelay,
  webhookDeliveryJobSchema,
  type WebhookDeliveryBatchData,
  type WebhookDeliveryJobData,
  type WebhookDeliveryJobName,
  type WebhookDeliveryJobResult,
  type WebhookDeliveryPayload,
} from '@wms/webhooks';
import { report, turnFor, type DeliveryProcessorDeps } from './attempts.js';
import { deliverBatch } from './delivery-batch.js';

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

type DeliveryJob = Job<WebhookDeliveryPayload, WebhookDeliveryJobResult, WebhookDeliveryJobName>;

/**
 * Turns attempts into BullMQ's terms. A single delivery's job: return = done, DeliveryRetryError = retry,
 * UnrecoverableError = failed; a delivery whose subscription already has its share of this worker's slots is
 * put back as delayed (not an attempt). A batch job settles each of its deliveries on its own (delivery-batch).
 */
export function deliveryProcessor(
  deps: DeliveryProcessorDeps,
): Processor<WebhookDeliveryPayload, WebhookDeliveryJobResult, WebhookDeliveryJobName> {
  return (job: DeliveryJob, token?: string) =>
    runWithContext({ requestId: job.id ?? 'job', jobId: job.id }, () =>
      job.name === WEBHOOK_DELIVERY_BATCH_JOB
        ? deliverBatch(deps, job.data as WebhookDeliveryBatchData, job.id)
        : deliverOne(deps, job, token),
    );
}

async function deliverOne(
  deps: DeliveryProcessorDeps,
  job: DeliveryJob,
  token: string | undefined,
): Promise<WebhookDeliveryJobResult> {
  const value = checkedPayload(job.data);
  const attemptNo = (value.attemptsBefore ?? 0) + job.attemptsMade + 1;
  const outcome = await deps.delivery.attempt(value.deliveryId, {
    jobId: job.id!,
    attemptNo,
    turn: turnFor(deps, value.subscriptionId),
  });
  report(
    deps.logger,
    outcome,
    { deliveryId: value.deliveryId, subscriptionId: value.subscriptionId, attemptNo },
    job.id,
  );
  switch (outcome.kind) {
    case 'succeeded':
      return { outcome: 'succeeded', ...(outcome.statusCode !== null && { statusCode: outcome.statusCode }) };
    case 'skipped':
      return { outcome: 'skipped' };
    case 'deferred':
      await job.moveToDelayed(Date.now() + outcome.delayMs, token);
      throw new DelayedError();
    case 'retry':
      throw new DeliveryRetryError(outcome.error, outcome.delayMs);
    case 'failed':
      throw new UnrecoverableError(outcome.error);
  }
}

/** The job's payload, checked against the queue contract's schema. */
function checkedPayload(data: unknown): WebhookDeliveryJobData {
  const { error, value } = webhookDeliveryJobSchema.validate(data);
  if (error) throw new UnrecoverableError(`invalid job payload: ${error.message}`);
  return value;
}

/** The queue's custom backoff: the delay the attempt computed, or base·2^(n-1) with jitter when none. */
export function deliveryBackoff(baseMs: number): BackoffStrategy {
  return (attemptsMade, _type, error) =>
    error instanceof DeliveryRetryError ? error.delayMs : backoffDelay(attemptsMade, baseMs);
}
