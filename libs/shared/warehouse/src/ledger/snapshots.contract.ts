import { Queue, type JobsOptions } from 'bullmq';
import type { QueueSettings } from '@wms/platform';

/**
 * The stock snapshots queue: one job per snapshot export, its id the snapshot's id (so adding it twice is a
 * no-op). The job writes the tenant's stock as of the snapshot's time into the snapshot's NDJSON file; a run
 * replaces what an earlier, failed run wrote, so retries are safe.
 */
export const STOCK_SNAPSHOTS_QUEUE = 'stock-snapshots';
export const STOCK_SNAPSHOT_JOB_NAME = 'snapshot';

export interface StockSnapshotJobData {
  snapshotId: string;
}

export type StockSnapshotsQueue = Queue<StockSnapshotJobData, void, typeof STOCK_SNAPSHOT_JOB_NAME>;

/** Done jobs go (the snapshot's row is the record); a failed one stays a day for inspection. */
export const stockSnapshotJobOptions: JobsOptions = {
  removeOnComplete: true,
  removeOnFail: { age: 24 * 3_600, count: 1_000 },
  attempts: 3,
  backoff: { type: 'exponential', delay: 1_000 },
};

export function createStockSnapshotsQueue(settings: QueueSettings): StockSnapshotsQueue {
  return new Queue<StockSnapshotJobData, void, typeof STOCK_SNAPSHOT_JOB_NAME>(STOCK_SNAPSHOTS_QUEUE, {
    connection: settings.connection,
    prefix: settings.prefix,
    defaultJobOptions: stockSnapshotJobOptions,
  });
}

export function addStockSnapshotJob(queue: StockSnapshotsQueue, snapshotId: string): Promise<unknown> {
  return queue.add(STOCK_SNAPSHOT_JOB_NAME, { snapshotId }, { jobId: snapshotId });
}
