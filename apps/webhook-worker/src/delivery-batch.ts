import { UnrecoverableError } from 'bullmq';
import {
  deliveryJobId,
  webhookDeliveryBatchSchema,
  type BatchedDelivery,
  type WebhookDeliveryBatchData,
  type WebhookDeliveryJobResult,
} from '@wms/webhooks';
import { report, turnFor, type DeliveryProcessorDeps } from './attempts.js';

type BatchCounts = Omit<Extract<WebhookDeliveryJobResult, { outcome: 'batch' }>, 'outcome'>;

/**
 * Runs a batch job: every delivery in it is attempted on its own, under this process' permits and its slow
 * subscribers' shares, and recorded as it settles, so one slow subscriber does not hold back the others'
 * records. What one attempt cannot finish goes on as a job of its own: a retry (queued before the attempt
 * is recorded, so a recorded retry always has its job) or a delivery over its slow subscriber's share (not
 * an attempt). The batch job fails only when a delivery could not be settled (PostgreSQL or Redis did not
 * answer); BullMQ then runs it again, and deliveries settled the first time are skipped, since they are no
 * longer pending or a later attempt carries them.
 */
export async function deliverBatch(
  deps: DeliveryProcessorDeps,
  data: WebhookDeliveryBatchData,
  jobId: string | undefined,
): Promise<WebhookDeliveryJobResult> {
  const { deliveries } = checkedBatch(data);
  // The relay adds a batch just before its fan-out commits: the rows are read once that has happened.
  await deps.delivery.repository.fanOutFinished();
  const counts: BatchCounts = { succeeded: 0, retried: 0, failed: 0, skipped: 0, deferred: 0 };
  const settled = await Promise.allSettled(deliveries.map((queued) => settleOne(deps, queued, counts, jobId)));
  const failure = settled.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failure) throw failure.reason;
  return { outcome: 'batch', ...counts };
}

async function settleOne(
  deps: DeliveryProcessorDeps,
  queued: BatchedDelivery,
  counts: BatchCounts,
  jobId: string | undefined,
): Promise<void> {
  const own = { jobId: deliveryJobId(queued), deliveryId: queued.deliveryId, subscriptionId: queued.subscriptionId };
  const outcome = await deps.delivery.attempt(queued.deliveryId, {
    attemptNo: 1,
    queued: { generation: queued.generation, attempts: queued.attempts },
    turn: turnFor(deps, queued.subscriptionId),
    beforeRetryRecorded: (delayMs) => deps.followUp({ ...own, attemptsBefore: 1, delayMs }),
  });
  if (outcome.kind === 'deferred') await deps.followUp({ ...own, attemptsBefore: 0, delayMs: outcome.delayMs });
  report(
    deps.logger,
    outcome,
    { deliveryId: queued.deliveryId, subscriptionId: queued.subscriptionId, attemptNo: 1 },
    jobId,
  );
  counts[outcome.kind === 'retry' ? 'retried' : outcome.kind] += 1;
}

/** The batch's payload, checked against the queue contract's schema. */
function checkedBatch(data: unknown): WebhookDeliveryBatchData {
  const { error, value } = webhookDeliveryBatchSchema.validate(data);
  if (error) throw new UnrecoverableError(`invalid batch payload: ${error.message}`);
  return value;
}
