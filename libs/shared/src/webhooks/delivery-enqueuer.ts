import type { Database } from '../db/index.js';
import {
  WEBHOOK_DELIVERY_BATCH,
  WEBHOOK_DELIVERY_BATCH_JOB,
  WEBHOOK_DELIVERY_JOB,
  deliveryBatchJobId,
  deliveryJobId,
  type WebhookDeliveryQueue,
} from '../queue/index.js';

export interface UnqueuedRow {
  id: string;
  eventId: string;
  subscriptionId: string;
  generation: number;
  attempts: number;
  priority: number;
}

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

/**
 * Moves deliveries that are written but not yet queued into the delivery queue. Rows are claimed with
 * FOR UPDATE SKIP LOCKED (several relays, and the gateway, share the work without waiting on each
 * other) and marked enqueued only after BullMQ accepted the jobs, in the same transaction: when Redis
 * is down the transaction rolls back and the rows wait in PostgreSQL for the next pass. A crash after
 * the add but before the commit re-adds the same job ids, which BullMQ ignores while the job exists
 * (and the worker skips a delivery that has already succeeded; a batch grouped differently the second
 * time may attempt a delivery twice, which at-least-once allows).
 */
export class DeliveryEnqueuer {
  /** When adding last failed: the fan-out leaves its rows to the enqueue passes for a while. */
  private failedAt = 0;

  constructor(
    private readonly db: Database,
    private readonly queue: WebhookDeliveryQueue,
    private readonly options: { addTimeoutMs?: number } = {},
  ) {}

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
      await withTimeout(
        this.queue.addBulk(deliveryJobsOf(rows, { alwaysBatch: true })),
        this.options.addTimeoutMs ?? 5_000,
      );
      return true;
    } catch {
      this.failedAt = Date.now();
      return false;
    }
  }

  /** Enqueues up to `limit` unqueued deliveries, oldest first; or only those named in `ids`. Returns how many. */
  async enqueue(limit: number, ids?: string[]): Promise<number> {
    if (ids && ids.length === 0) return 0;
    return this.db.sequelize.transaction(async (transaction) => {
      const [rows] = (await this.db.sequelize.query(
        `SELECT id, event_id AS "eventId", subscription_id AS "subscriptionId", generation, attempts, priority
           FROM webhook_deliveries
          WHERE enqueued_at IS NULL ${ids ? 'AND id IN (:ids)' : ''}
          ORDER BY created_at
          LIMIT :limit
          FOR UPDATE SKIP LOCKED`,
        { replacements: { limit, ids: ids ?? null }, transaction },
      )) as [UnqueuedRow[], unknown];
      if (rows.length === 0) return 0;
      await withTimeout(this.queue.addBulk(deliveryJobsOf(rows)), this.options.addTimeoutMs ?? 5_000).catch(
        (error: unknown) => {
          this.failedAt = Date.now();
          throw error;
        },
      );
      await this.db.sequelize.query('UPDATE webhook_deliveries SET enqueued_at = now() WHERE id IN (:ids)', {
        replacements: { ids: rows.map((row) => row.id) },
        transaction,
      });
      return rows.length;
    });
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`queue did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
