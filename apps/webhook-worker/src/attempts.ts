import { runWithContext, type Logger } from '@wms/platform';
import { webhookAttemptDuration, webhookDeliveries } from '@wms/webhooks';
import type { AttemptOutcome, AttemptPermits, SubscriptionSlots, WebhookDeliveryService } from '@wms/webhooks';

/** A delivery of a batch that goes on as a `deliver` job of its own, after `delayMs`. */
export interface FollowUpJob {
  jobId: string;
  deliveryId: string;
  subscriptionId: string;
  /** Attempts of this run already made (1 after the batch's attempt, 0 when it was only deferred). */
  attemptsBefore: number;
  delayMs: number;
}

export interface DeliveryProcessorDeps {
  delivery: WebhookDeliveryService;
  logger: Logger;
  slots: SubscriptionSlots;
  /** WEBHOOK_CONCURRENCY attempts at once in this process, of single and batch jobs alike. */
  permits: AttemptPermits;
  /** Queues a delivery of a batch as a job of its own (its retry, or a wait for its slow subscriber). */
  followUp: (job: FollowUpJob) => Promise<void>;
}

/**
 * The turn of one attempt: a permit of this process' WEBHOOK_CONCURRENCY, then a slot of its subscriber
 * (capped while the subscriber is slow). A delivery over its slow subscriber's share gives the permit back
 * and waits about one of that subscriber's attempts instead.
 */
export function turnFor(
  { permits, slots }: Pick<DeliveryProcessorDeps, 'permits' | 'slots'>,
  subscriptionId: string | undefined,
): () => Promise<{ done: () => void } | { deferMs: number }> {
  return async () => {
    const release = await permits.acquire();
    const slot = subscriptionId ? slots.take(subscriptionId) : undefined;
    if (slot && !slot.taken) {
      release();
      return { deferMs: slot.retryInMs };
    }
    return {
      done: () => {
        if (slot?.taken) slot.release();
        release();
      },
    };
  };
}

const METRIC_OUTCOME = { succeeded: 'succeeded', retry: 'retried', failed: 'failed' } as const;

/**
 * Counts the attempt and logs one line for it, under the request (and trace) that caused its event, so the
 * line joins the gateway's lines of that request.
 */
export function report(
  logger: Logger,
  outcome: AttemptOutcome,
  delivery: { deliveryId: string; subscriptionId?: string; attemptNo: number },
  jobId: string | undefined,
): void {
  if (outcome.kind === 'skipped' || outcome.kind === 'deferred') {
    logger.debug({ ...delivery, outcome }, 'delivery not attempted');
    return;
  }
  webhookDeliveries
    .labels(outcome.kind === 'failed' && outcome.disabled ? 'disabled' : METRIC_OUTCOME[outcome.kind])
    .inc();
  if (outcome.latencyMs !== undefined) webhookAttemptDuration.observe(outcome.latencyMs / 1000);
  if (!logger.isLevelEnabled('info')) return;
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
