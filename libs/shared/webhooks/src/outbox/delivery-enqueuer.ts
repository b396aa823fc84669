import type { ChainableCommander } from 'ioredis';
import type { Database } from '@wms/platform';
import { within, unitOfWork } from '@wms/platform';
import {
  WEBHOOK_DELIVERY_BATCH,
  WEBHOOK_DELIVERY_BATCH_JOB,
  WEBHOOK_DELIVERY_JOB,
  deliveryBatchJobId,
  deliveryIdsOf,
  deliveryJobId,
  type WebhookDeliveryQueue,
} from '../delivery/index.js';
import { OutboxRepository, type UnqueuedRow } from './outbox.repository.js';

export type { UnqueuedRow } from './outbox.repository.js';

type DeliveryJobs = Parameters<WebhookDeliveryQueue['addBulk']>[0];

/**
 * The jobs of one pass. Deliveries without a priority go in batch jobs of up to WEBHOOK_DELIVERY_BATCH (a
 * lone one as a job of its own); recovered and replayed deliveries carry a priority and stay one job each,
 * so BullMQ runs every live delivery before them.
 */
export function deliveryJobsOf(rows: UnqueuedRow[], { alwaysBatch = false } = {}): DeliveryJobs {
  const jobs: DeliveryJobs = [];
  const single = (row: UnqueuedRow) =>
    jobs.push({
      name: WEBHOOK_DELIVERY_JOB,
      data: { deliveryId: row.id, subscriptionId: row.subscriptionId },
      opts: row.priority > 0 ? { jobId: deliveryJobId(row), priority: row.priority } : { jobId: deliveryJobId(row) },
    });
  const live = rows.filter((row) => row.priority === 0);
  rows.filter((row) => row.priority > 0).forEach(single);
  if (live.length === 1 && !alwaysBatch) single(live[0]!);
  else
    for (let at = 0; at < live.length; at += WEBHOOK_DELIVERY_BATCH) {
      const batch = live.slice(at, at + WEBHOOK_DELIVERY_BATCH);
      jobs.push({
        name: WEBHOOK_DELIVERY_BATCH_JOB,
        data: {
          deliveries: batch.map((row) => ({
            deliveryId: row.id,
            eventId: row.eventId,
            subscriptionId: row.subscriptionId,
            generation: row.generation,
            attempts: row.attempts,
          })),
        },
        opts: { jobId: deliveryBatchJobId(batch) },
      });
    }
  return jobs;
}

export interface RecheckPass {
  checked: number;
  /** Deliveries whose job Redis no longer knew, added again. */
  lost: number;
}

/**
 * Moves deliveries that are written but not yet queued into the delivery queue. Rows are claimed with
 * FOR UPDATE SKIP LOCKED (several relays, and the gateway, share the work without waiting on each
 * other) and marked enqueued only after BullMQ accepted the jobs, in the same transaction: when Redis
 * is down the transaction rolls back and the rows wait in PostgreSQL for the next pass. A crash after
 * the add but before the commit re-adds the same job ids, which BullMQ ignores while the job exists
 * (and the worker skips a delivery that has already succeeded; a batch grouped differently the second
 * time may attempt a delivery twice, which at-least-once allows).
 *
 * PostgreSQL stays the record: a pending delivery whose job Redis lost (a failover that dropped the last
 * writes, a restart without data, FLUSHALL) is found by `recheck` and queued again.
 */
export class DeliveryEnqueuer {
  /** When adding last failed: the fan-out leaves its rows to the enqueue passes for a while. */
  private failedAt = 0;
  private readonly outbox: OutboxRepository;

  constructor(
    private readonly db: Database,
    private readonly queue: WebhookDeliveryQueue,
    private readonly options: { addTimeoutMs?: number } = {},
  ) {
    this.outbox = new OutboxRepository(db);
  }

  /** False for a few seconds after an add failed: Redis is away, and waiting on it would hold up the fan-out. */
  get addsAtFanOut(): boolean {
    return Date.now() - this.failedAt > (this.options.addTimeoutMs ?? 5_000);
  }

  /**
   * Adds the deliveries a fan-out just wrote, in its transaction (they were written as enqueued). Always as
   * batch jobs, whose ids name the delivery rows: if the transaction never commits, a later pass writes new
   * rows, so no job that names the lost rows can stand in for theirs. False when Redis did not take them.
   */
  async addFannedOut(rows: UnqueuedRow[]): Promise<boolean> {
    try {
      await within(this.queue.addBulk(deliveryJobsOf(rows, { alwaysBatch: true })), this.options.addTimeoutMs ?? 5_000);
      return true;
    } catch {
      this.failedAt = Date.now();
      return false;
    }
  }

  /** Enqueues up to `limit` unqueued deliveries, oldest first; or only those named in `ids`. Returns how many. */
  async enqueue(limit: number, ids?: string[]): Promise<number> {
    if (ids && ids.length === 0) return 0;
    return unitOfWork(this.db, async (transaction) => {
      const rows = await this.outbox.claimUnqueued(limit, ids, transaction);
      if (rows.length === 0) return 0;
      await within(this.queue.addBulk(deliveryJobsOf(rows)), this.options.addTimeoutMs ?? 5_000).catch(
        (error: unknown) => {
          this.failedAt = Date.now();
          throw error;
        },
      );
      await this.outbox.markEnqueued(
        rows.map((row) => row.id),
        transaction,
      );
      return rows.length;
    });
  }

  /**
   * Looks up in Redis the jobs of every pending delivery queued at least `staleMs` ago (0: all of them),
   * `batch` at a time, and adds again those Redis does not know. Each looked-up row is stamped, so a
   * backlog is walked through once per sweep, not on every pass. A row is locked while it is checked, so a
   * worker's write of its outcome waits for the check instead of racing it: a delivery that is no longer
   * pending is never queued again.
   */
  async recheck(batch: number, staleMs: number): Promise<RecheckPass> {
    const cutoff = await this.outbox.cutoff(staleMs);
    const total: RecheckPass = { checked: 0, lost: 0 };
    // The deliveries that unfinished batch jobs carry are read when first needed and then reused: reading
    // every batch job per 500 rows would cost Redis a whole backlog's reads again and again after a
    // reconnection. They are read afresh only before a row is declared lost (see recheckBatch).
    let batched: Promise<Set<string>> | undefined;
    const batchedDeliveries = (fresh: boolean) => (fresh || !batched ? (batched = this.batchedDeliveries()) : batched);
    for (;;) {
      const pass = await this.recheckBatch(batch, cutoff, batchedDeliveries);
      total.checked += pass.checked;
      total.lost += pass.lost;
      if (pass.checked < batch) return total;
    }
  }

  private async recheckBatch(
    limit: number,
    cutoff: Date,
    batchedDeliveries: (fresh: boolean) => Promise<Set<string>>,
  ): Promise<RecheckPass> {
    return unitOfWork(this.db, async (transaction) => {
      const rows = await this.outbox.claimQueuedBefore(limit, cutoff, transaction);
      if (rows.length === 0) return { checked: 0, lost: 0 };
      const timeoutMs = this.options.addTimeoutMs ?? 5_000;
      const known = await within(this.jobsExist(rows.map(deliveryJobId)), timeoutMs);
      const unknown = rows.filter((_row, index) => !known[index]);
      // A delivery without a job of its own may travel in a batch job that Redis still holds. The batch jobs
      // are read again, after this batch's rows were read, before a row counts as lost: a row committed after
      // an earlier read has its batch job added before its commit, so the fresh read sees it.
      let lost = unknown;
      if (lost.length > 0) {
        const batched = await within(batchedDeliveries(false), timeoutMs);
        lost = lost.filter((row) => !batched.has(row.id));
      }
      if (lost.length > 0) {
        const batched = await within(batchedDeliveries(true), timeoutMs);
        lost = lost.filter((row) => !batched.has(row.id));
      }
      if (lost.length > 0) await within(this.queue.addBulk(lost.map(deliveryJob)), timeoutMs);
      await this.outbox.markEnqueued(
        rows.map((row) => row.id),
        transaction,
      );
      return { checked: rows.length, lost: lost.length };
    });
  }

  /** The deliveries carried by batch jobs not yet finished (waiting, delayed, active). */
  private async batchedDeliveries(): Promise<Set<string>> {
    const jobs = await this.queue.getJobs(['waiting', 'delayed', 'active', 'paused', 'prioritized']);
    return new Set(
      jobs.filter((job) => job?.name === WEBHOOK_DELIVERY_BATCH_JOB).flatMap((job) => deliveryIdsOf(job.data)),
    );
  }

  /** One pipelined EXISTS per job hash; on a cluster the queue's keys share one slot (hash-tagged prefix). */
  private async jobsExist(jobIds: string[]): Promise<boolean[]> {
    const client = await this.queue.client;
    // BullMQ types its client narrowly; it is an ioredis client (or cluster), whose pipeline has EXISTS.
    const pipeline = client.pipeline() as unknown as ChainableCommander;
    for (const jobId of jobIds) pipeline.exists(this.queue.toKey(jobId));
    const replies = (await pipeline.exec()) ?? [];
    return jobIds.map((_id, index) => {
      const [error, count] = replies[index] ?? [new Error('no reply'), 0];
      if (error) throw error;
      return count === 1;
    });
  }
}

function deliveryJob(row: UnqueuedRow) {
  return {
    name: WEBHOOK_DELIVERY_JOB,
    data: { deliveryId: row.id, subscriptionId: row.subscriptionId },
    // Recovered and replayed deliveries carry a priority: BullMQ runs every job without one first.
    opts: row.priority > 0 ? { jobId: deliveryJobId(row), priority: row.priority } : { jobId: deliveryJobId(row) },
  } as const;
}
