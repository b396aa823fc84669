import { Worker } from 'bullmq';
import { closeRedis, closeWithin, createRedis, queuePrefix, runWithContext, type Runtime } from '@wms/platform';
import {
  STOCK_SNAPSHOTS_QUEUE,
  StockSnapshotsService,
  type STOCK_SNAPSHOT_JOB_NAME,
  type StockSnapshotJobData,
} from '@wms/warehouse';

export interface SnapshotsWorkerHandle {
  worker: Worker<StockSnapshotJobData, void, typeof STOCK_SNAPSHOT_JOB_NAME>;
  close(): Promise<void>;
}

/**
 * Consumes the stock snapshots queue, one snapshot at a time per worker: each job writes its snapshot's
 * NDJSON file; after its last attempt failed, the snapshot is marked failed with the reason.
 */
export function startSnapshotsWorker(runtime: Runtime): SnapshotsWorkerHandle {
  const { config, logger } = runtime;
  const snapshots = new StockSnapshotsService(runtime.db);
  const connection = createRedis(config, 'worker', 'snapshots-worker');
  const worker = new Worker<StockSnapshotJobData, void, typeof STOCK_SNAPSHOT_JOB_NAME>(
    STOCK_SNAPSHOTS_QUEUE,
    (job) => runWithContext({ requestId: job.id!, jobId: job.id! }, () => snapshots.write(job.data.snapshotId)),
    { connection, prefix: queuePrefix(config), concurrency: 1 },
  );
  worker.on('failed', (job, error) => {
    logger.warn({ jobId: job?.id, attemptsMade: job?.attemptsMade, err: error }, 'stock snapshot job failed');
    if (job && job.attemptsMade >= (job.opts.attempts ?? 1)) {
      snapshots
        .fail(job.data.snapshotId, 'the snapshot could not be written')
        .catch((failure: unknown) => logger.warn({ err: failure, jobId: job.id }, 'snapshot not marked failed'));
    }
  });
  worker.on('error', (error) => logger.error({ err: error }, 'snapshots worker error'));
  return {
    worker,
    async close() {
      await closeWithin(worker, undefined);
      await closeRedis(connection);
    },
  };
}
