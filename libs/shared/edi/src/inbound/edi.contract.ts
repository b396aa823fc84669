import { Queue, type JobsOptions } from 'bullmq';
import { queueTelemetry, type QueueSettings } from '@wms/platform';
import { turnPriority, type QueueEntry } from '@wms/ingest';

/**
 * The EDI queue (ADR 0207, "The engine"): one job per inbound interchange, its id the interchange's, queued
 * at its tenant's turn (ADR 0190) as bulk jobs and import chunks are, and read by the ingest worker. The
 * interchange's state lives in PostgreSQL; the job only says which one to read.
 */
export const EDI_QUEUE = 'edi';
export const EDI_JOB_NAME = 'interchange' as const;

export interface EdiJobData {
  tenantId: string;
  interchangeId: string;
}

export type EdiQueue = Queue<EdiJobData, void, typeof EDI_JOB_NAME>;

/** A done job is removed (the interchange's row is the record); a failed one stays a day for inspection. */
export const ediJobOptions: JobsOptions = {
  removeOnComplete: true,
  removeOnFail: { age: 24 * 3_600, count: 1_000 },
  attempts: 5,
  backoff: { type: 'exponential', delay: 1_000 },
};

/**
 * A killed worker's interchange is back in the queue within seconds; reading it again is safe (each batch
 * of sets commits with its rows, and a set written is skipped).
 */
export const EDI_WORKER_LOCKS = { lockDuration: 15_000, stalledInterval: 3_000, maxStalledCount: 100 } as const;

export function createEdiQueue(settings: QueueSettings): EdiQueue {
  return new Queue<EdiJobData, void, typeof EDI_JOB_NAME>(EDI_QUEUE, {
    connection: settings.connection,
    prefix: settings.prefix,
    defaultJobOptions: ediJobOptions,
    streams: { events: { maxLen: 1_000 } },
    telemetry: queueTelemetry(),
  });
}

/** An interchange's job: its id, and its tenant's turn as its priority. */
export function ediJob(unit: { id: string; tenantId: string; turn: number }): QueueEntry<EdiQueue> {
  return {
    name: EDI_JOB_NAME,
    data: { tenantId: unit.tenantId, interchangeId: unit.id },
    opts: { jobId: unit.id, priority: turnPriority(unit.turn) },
  };
}
