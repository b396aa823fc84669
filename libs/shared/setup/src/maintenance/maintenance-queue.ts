import { Queue, type ConnectionOptions, type JobSchedulerTemplateOptions } from 'bullmq';
import { defaultJobOptions, queueTelemetry, type Config } from '@wms/platform';

/**
 * The maintenance queue: periodic work (retention, the imports purge, the request log's partitions, the
 * failing-subscription sweep, the trading partners' scheduled 846s) as BullMQ job schedulers. A scheduler makes one job per interval whatever
 * the number of workers, so the work runs once per interval over all replicas, is retried when it fails,
 * and shows in the queue console. Jobs carry nothing: each task reads what it needs from PostgreSQL.
 */
export const MAINTENANCE_QUEUE = 'maintenance';

export const MAINTENANCE_JOBS = [
  'retention-sweep',
  'imports-purge',
  'request-log-maintenance',
  'webhook-disable-sweep',
  'edi-inventory-advice',
] as const;

export type MaintenanceJobName = (typeof MAINTENANCE_JOBS)[number];
export type MaintenancePayload = Record<string, never>;
/** What a pass did, in counts (rows purged, partitions made…), for the console and the log. */
export type MaintenanceJobResult = Record<string, number>;
export type MaintenanceQueue = Queue<MaintenancePayload, MaintenanceJobResult, MaintenanceJobName>;

/**
 * A failed pass is tried again soon; the next interval makes a fresh job anyway. Each run is a trace of its
 * own: without `omitContext` every run would carry on the trace of the one before, one trace for ever.
 */
export const MAINTENANCE_JOB_OPTIONS: JobSchedulerTemplateOptions = {
  telemetry: { omitContext: true },
  attempts: 3,
  backoff: { type: 'exponential', delay: 1_000 },
  removeOnComplete: { age: 24 * 3_600, count: 1_000 },
  removeOnFail: { age: 7 * 24 * 3_600, count: 1_000 },
};

/** Each job's interval, from the settings. */
export function maintenanceIntervals(config: Pick<Config, 'maintenance'>): Record<MaintenanceJobName, number> {
  const { maintenance } = config;
  return {
    'retention-sweep': maintenance.retentionSweepMs,
    'imports-purge': maintenance.importPurgeMs,
    'request-log-maintenance': maintenance.requestLogMaintenanceMs,
    'webhook-disable-sweep': maintenance.webhookDisableSweepMs,
    'edi-inventory-advice': maintenance.ediInventoryAdviceMs,
  };
}

export function createMaintenanceQueue(connection: ConnectionOptions, prefix: string): MaintenanceQueue {
  return new Queue<MaintenancePayload, MaintenanceJobResult, MaintenanceJobName>(MAINTENANCE_QUEUE, {
    connection,
    prefix,
    defaultJobOptions,
    telemetry: queueTelemetry(),
  });
}

/**
 * Makes (or updates) one job scheduler per maintenance job, named after the job. Every worker calls it at
 * start: an upsert of the same id keeps one scheduler, so replicas starting together schedule nothing twice.
 */
export async function scheduleMaintenance(
  queue: MaintenanceQueue,
  intervals: Record<MaintenanceJobName, number>,
): Promise<void> {
  for (const name of MAINTENANCE_JOBS)
    await queue.upsertJobScheduler(name, { every: intervals[name] }, { name, data: {}, opts: MAINTENANCE_JOB_OPTIONS });
}
