import { Worker } from 'bullmq';
import { JobDispatcher, type DispatchSource } from '@wms/ingest';
import { closeRedis, closeWithin, createRedis, queuePrefix, runWithContext, type Runtime } from '@wms/platform';
import {
  STOCK_SNAPSHOTS_QUEUE,
  STOCK_SNAPSHOT_JOB_NAME,
  StockSnapshotsService,
  createStockSnapshotsQueue,
  type SnapshotDispatchUnit,
  type StockSnapshotJobData,
  type StockSnapshotsQueue,
} from '@wms/warehouse';

export interface SnapshotsWorkerHandle {
  worker: Worker<StockSnapshotJobData, void, typeof STOCK_SNAPSHOT_JOB_NAME>;
  dispatcher: JobDispatcher<SnapshotDispatchUnit, StockSnapshotsQueue>;
  close(): Promise<void>;
}

/**
 * Stored snapshots as the dispatcher's units: a snapshot the gateway could not queue (Redis away) is added,
 * and one whose job Redis lost is added again, under the snapshot's id. A job BullMQ gave up on without the
 * worker recording it ends the snapshot as failed.
 */
export function snapshotJobSource(
  snapshots: StockSnapshotsService,
): DispatchSource<SnapshotDispatchUnit, StockSnapshotsQueue> {
  return {
    label: 'stock snapshots',
    dispatch: (limit, staleMs, hand) => snapshots.dispatch(limit, staleMs, hand),
    job: (unit) => ({ name: STOCK_SNAPSHOT_JOB_NAME, data: { snapshotId: unit.id } }),
    failed: (unit) => snapshots.fail(unit.id, 'the snapshot could not be written'),
  };
}

/**
 * Consumes the stock snapshots queue, one snapshot at a time per worker: each job writes its snapshot's
 * NDJSON file; after its last attempt failed, the snapshot is marked failed with the reason. Its dispatcher
 * keeps the queue in step with the stored snapshots.
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
  const queue = createStockSnapshotsQueue({ connection: runtime.redis, prefix: queuePrefix(config) });
  queue.on('error', () => undefined);
  const dispatcher = new JobDispatcher(snapshotJobSource(snapshots), queue, logger);
  dispatcher.start(runtime.redis);
  return {
    worker,
    dispatcher,
    async close() {
      await dispatcher.stop();
      await closeWithin(worker, undefined);
      await closeWithin(queue, 2_000);
      await closeRedis(connection);
    },
  };
}
