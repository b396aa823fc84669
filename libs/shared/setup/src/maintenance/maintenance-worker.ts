import { UnrecoverableError, Worker, type ConnectionOptions } from 'bullmq';
import { closeWithin, queueTelemetry, type Logger } from '@wms/platform';
import {
  MAINTENANCE_QUEUE,
  createMaintenanceQueue,
  scheduleMaintenance,
  type MaintenanceQueue,
  type MaintenanceJobName,
  type MaintenanceJobResult,
  type MaintenancePayload,
} from './maintenance-queue.js';
import type { MaintenanceTasks } from './maintenance-tasks.js';

export type MaintenanceWorker = Worker<MaintenancePayload, MaintenanceJobResult, MaintenanceJobName>;

/**
 * Runs the maintenance queue's jobs, one at a time per process: each is a batch of set-based statements, and
 * several workers together still run each interval's job once (the scheduler made one job).
 */
export function startMaintenanceWorker(
  connection: ConnectionOptions,
  prefix: string,
  tasks: MaintenanceTasks,
  logger: Logger,
): MaintenanceWorker {
  const worker = new Worker<MaintenancePayload, MaintenanceJobResult, MaintenanceJobName>(
    MAINTENANCE_QUEUE,
    async (job) => {
      const task = Object.hasOwn(tasks, job.name) ? tasks[job.name] : undefined;
      if (!task) throw new UnrecoverableError(`unknown maintenance job ${job.name}`);
      const result = await task();
      logger.debug({ job: job.name, jobId: job.id, result }, 'maintenance pass done');
      return result;
    },
    { connection, prefix, concurrency: 1, telemetry: queueTelemetry() },
  );
  worker.on('failed', (job, error) =>
    logger.warn({ err: error, job: job?.name, attempt: job?.attemptsMade }, 'maintenance pass failed'),
  );
  worker.on('error', (error) => logger.warn({ err: error }, 'maintenance worker error'));
  return worker;
}

export interface Maintenance {
  queue: MaintenanceQueue;
  worker: MaintenanceWorker;
  /** Worker first (a pass in flight finishes unless `force`), then the queue handle. */
  close(force?: boolean): Promise<void>;
}

/**
 * Schedules the maintenance jobs at the configured intervals and processes them in this process. The queue
 * handle shares `connection`'s settings; the worker opens its own blocking connection from them.
 */
export async function startMaintenance(options: {
  connection: ConnectionOptions;
  prefix: string;
  intervals: Record<MaintenanceJobName, number>;
  tasks: MaintenanceTasks;
  logger: Logger;
}): Promise<Maintenance> {
  const queue = createMaintenanceQueue(options.connection, options.prefix);
  queue.on('error', (error) => options.logger.warn({ err: error }, 'maintenance queue error'));
  await scheduleMaintenance(queue, options.intervals);
  const worker = startMaintenanceWorker(options.connection, options.prefix, options.tasks, options.logger);
  return {
    queue,
    worker,
    async close(force = false) {
      await closeWithin(worker, undefined, force);
      await closeWithin(queue, 2_000);
    },
  };
}
