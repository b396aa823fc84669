import { Queue, type JobsOptions } from 'bullmq';
import { queueTelemetry, type QueueSettings } from '@wms/platform';

/**
 * The imports queue: a queue of its own, beside the ingest queue, so bulk calls never wait in line behind
 * a file. A job is one turn of one tenant: the worker writes one chunk of that tenant's unfinished import
 * whose last turn is oldest, adds the tenant's next turn at the end of the queue and completes, so tenants
 * take turns (round-robin) however many files each has running, and a tenant's files share its turns. A
 * tenant has IMPORT_TENANT_CONCURRENCY chains of turns, so that several workers share a large file; a chain's
 * turns alternate between two job ids (phase 0 and 1), so the next one is added while the current one still
 * holds its id, and the chain has no gap a crash could lose.
 */
export const IMPORTS_QUEUE = 'imports';
export const IMPORT_JOB_NAME = 'import';

export interface ImportTurnData {
  tenantId: string;
  /** Which of the tenant's chains this is: a turn starts with its own share of a file's chunks. */
  slot: number;
  phase: 0 | 1;
}

export type ImportsQueue = Queue<ImportTurnData, void, typeof IMPORT_JOB_NAME>;

/** The job id of a tenant's turn: adding one that is waiting or running again is a no-op. */
export function importTurnId(tenantId: string, slot: number, phase: 0 | 1): string {
  return `tenant-${tenantId}-turn-${slot}-${phase}`;
}

/**
 * Turns are removed once done (the import's row is the record); a failed turn stays a day for inspection
 * and the dispatcher gives it another run while its import is unfinished.
 */
export const importJobOptions: JobsOptions = {
  removeOnComplete: true,
  removeOnFail: { age: 24 * 3_600, count: 1_000 },
  attempts: 3,
  backoff: { type: 'exponential', delay: 1_000 },
};

/**
 * Lock settings of import workers: a killed worker's turn is back in the queue within seconds; a turn that
 * stalls is harmless (its chunk's transaction was rolled back with the connection), so it may stall often.
 */
export const IMPORT_WORKER_LOCKS = { lockDuration: 10_000, stalledInterval: 2_000, maxStalledCount: 100 } as const;

export function createImportsQueue(settings: QueueSettings): ImportsQueue {
  return new Queue<ImportTurnData, void, typeof IMPORT_JOB_NAME>(IMPORTS_QUEUE, {
    connection: settings.connection,
    prefix: settings.prefix,
    defaultJobOptions: importJobOptions,
    streams: { events: { maxLen: 1_000 } },
    telemetry: queueTelemetry(),
  });
}

/** The slots of a tenant's chains of turns: 0 … chains - 1. */
export function importSlots(chains: number): number[] {
  return Array.from({ length: chains }, (_unused, slot) => slot);
}

/**
 * A turn serves whichever of the tenant's imports has a chunk left, and adds the next turn: carried on, its
 * trace would run through every turn the tenant ever has. Each turn is a trace of its own instead, and each
 * chunk a span of its import's trace (ImportRunner).
 */
const IMPORT_TURN_TELEMETRY = { omitContext: true };

/** Adds the first turn of each of the tenant's chains named (those already there are left as they are). */
export async function addImportTurns(queue: ImportsQueue, tenantId: string, slots: number[]): Promise<void> {
  await queue.addBulk(
    slots.map((slot) => ({
      name: IMPORT_JOB_NAME,
      data: { tenantId, slot, phase: 0 as const },
      opts: { jobId: importTurnId(tenantId, slot, 0), telemetry: IMPORT_TURN_TELEMETRY },
    })),
  );
}

/** Adds the turn after this one, at the end of the queue. */
export async function addNextTurn(queue: ImportsQueue, turn: ImportTurnData): Promise<void> {
  const phase = turn.phase === 0 ? 1 : 0;
  await queue.add(
    IMPORT_JOB_NAME,
    { ...turn, phase },
    { jobId: importTurnId(turn.tenantId, turn.slot, phase), telemetry: IMPORT_TURN_TELEMETRY },
  );
}
