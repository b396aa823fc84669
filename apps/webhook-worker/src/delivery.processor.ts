import { DelayedError, UnrecoverableError, type BackoffStrategy, type Job, type Processor } from 'bullmq';
import {
  backoffDelay,
  runWithContext,
  webhookAttemptDuration,
  webhookDeliveries,
  webhookDeliveryJobSchema,
  type Logger,
  type SubscriptionSlots,
  type WebhookDeliveryJobData,
  type WebhookDeliveryJobName,
  type WebhookDeliveryJobResult,
  type AttemptOutcome,
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
      const value = checkedPayload(job.data);
      const slot = value.subscriptionId ? slots.take(value.subscriptionId) : undefined;
      if (slot && !slot.taken) {
        await job.moveToDelayed(Date.now() + slot.retryInMs, token);
        throw new DelayedError();
      }
      const attemptNo = job.attemptsMade + 1;
      const outcome = await delivery.attempt(value.deliveryId, job.id!, attemptNo).finally(() => slot?.release());
      report(
        logger,
        outcome,
        { deliveryId: value.deliveryId, subscriptionId: value.subscriptionId, attemptNo },
        job.id,
      );
      switch (outcome.kind) {
        case 'succeeded':
          return { outcome: 'succeeded', statusCode: outcome.statusCode };
        case 'skipped':
          return { outcome: 'skipped' };
        case 'retry':
          throw new DeliveryRetryError(outcome.error, outcome.delayMs);
        case 'failed':
          throw new UnrecoverableError(outcome.error);
      }
    });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The job's payload. The payload the relay writes (two UUIDs) is recognised directly; anything else is
 * left to the joi schema, which accepts what it accepts and words the error of what it refuses.
 */
function checkedPayload(data: unknown): WebhookDeliveryJobData {
  const { deliveryId, subscriptionId, ...rest } = (data ?? {}) as Partial<WebhookDeliveryJobData>;
  if (
    typeof deliveryId === 'string' &&
    UUID.test(deliveryId) &&
    (subscriptionId === undefined || (typeof subscriptionId === 'string' && UUID.test(subscriptionId))) &&
    Object.keys(rest).length === 0
  )
    return { deliveryId, ...(subscriptionId === undefined ? {} : { subscriptionId }) };
  const { error, value } = webhookDeliveryJobSchema.validate(data);
  if (error) throw new UnrecoverableError(`invalid job payload: ${error.message}`);
  return value;
}

const METRIC_OUTCOME = { succeeded: 'succeeded', retry: 'retried', failed: 'failed' } as const;

/**
 * Counts the attempt and logs one line for it, under the request (and trace) that caused its event, so the
 * line joins the gateway's lines of that request.
 */
function report(
  logger: Logger,
  outcome: AttemptOutcome,
  delivery: { deliveryId: string; subscriptionId?: string; attemptNo: number },
  jobId: string | undefined,
): void {
  if (outcome.kind === 'skipped') {
    logger.debug({ ...delivery, reason: outcome.reason }, 'delivery skipped');
    return;
  }
  webhookDeliveries
    .labels(outcome.kind === 'failed' && outcome.disabled ? 'disabled' : METRIC_OUTCOME[outcome.kind])
    .inc();
  if (outcome.latencyMs !== undefined) webhookAttemptDuration.observe(outcome.latencyMs / 1000);
  const { about } = outcome;
  const context = {
    requestId: about?.requestId ?? jobId ?? 'job',
    jobId,
    ...(about?.traceId ? { traceId: about.traceId } : {}),
  };
  runWithContext(context, () =>
    logger.info(
      {
        ...delivery,
        eventId: about?.eventId,
        event: about?.event,
        outcome: outcome.kind,
        ...(outcome.kind === 'succeeded' ? { statusCode: outcome.statusCode } : { error: outcome.error }),
        latencyMs: outcome.latencyMs,
      },
      'webhook delivery attempt',
    ),
  );
}

/** The queue's custom backoff: the delay the attempt computed, or base·2^(n-1) with jitter when none. */
export function deliveryBackoff(baseMs: number): BackoffStrategy {
  return (attemptsMade, _type, error) =>
    error instanceof DeliveryRetryError ? error.delayMs : backoffDelay(attemptsMade, baseMs);
}
