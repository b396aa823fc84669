import type { Database } from '../db/index.js';
import { WEBHOOK_DELIVERY_JOB, deliveryJobId, type WebhookDeliveryQueue } from '../queue/index.js';

interface UnqueuedRow {
  id: string;
  eventId: string;
  subscriptionId: string;
  generation: number;
  priority: number;
}

/**
 * Moves deliveries that are written but not yet queued into the delivery queue. Rows are claimed with
 * FOR UPDATE SKIP LOCKED (several relays, and the gateway, share the work without waiting on each
 * other) and marked enqueued only after BullMQ accepted the jobs, in the same transaction: when Redis
 * is down the transaction rolls back and the rows wait in PostgreSQL for the next pass. A crash after
 * the add but before the commit re-adds the same job ids, which BullMQ ignores while the job exists
 * (and the worker skips a delivery that has already succeeded).
 */
export class DeliveryEnqueuer {
  constructor(
    private readonly db: Database,
    private readonly queue: WebhookDeliveryQueue,
    private readonly options: { addTimeoutMs?: number } = {},
  ) {}

  /** Enqueues up to `limit` unqueued deliveries, oldest first; or only those named in `ids`. Returns how many. */
  async enqueue(limit: number, ids?: string[]): Promise<number> {
    if (ids && ids.length === 0) return 0;
    return this.db.sequelize.transaction(async (transaction) => {
      const [rows] = (await this.db.sequelize.query(
        `SELECT id, event_id AS "eventId", subscription_id AS "subscriptionId", generation, priority
           FROM webhook_deliveries
          WHERE enqueued_at IS NULL ${ids ? 'AND id IN (:ids)' : ''}
          ORDER BY created_at
          LIMIT :limit
          FOR UPDATE SKIP LOCKED`,
        { replacements: { limit, ids: ids ?? null }, transaction },
      )) as [UnqueuedRow[], unknown];
      if (rows.length === 0) return 0;
      await withTimeout(
        this.queue.addBulk(
          rows.map((row) => ({
            name: WEBHOOK_DELIVERY_JOB,
            data: { deliveryId: row.id, subscriptionId: row.subscriptionId },
            // Recovered and replayed deliveries carry a priority: BullMQ runs every job without one first.
            opts:
              row.priority > 0 ? { jobId: deliveryJobId(row), priority: row.priority } : { jobId: deliveryJobId(row) },
          })),
        ),
        this.options.addTimeoutMs ?? 5_000,
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
