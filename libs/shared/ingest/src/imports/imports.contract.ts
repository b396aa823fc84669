import { Queue, type JobsOptions } from 'bullmq';
import { queueTelemetry, type QueueSettings } from '@wms/platform';
import { turnPriority, type QueueEntry } from '../dispatch/index.js';

/**
 * The imports queue: a queue of its own, beside the ingest queue, so bulk calls never wait in line behind
 * a file. A job is one chunk of one import, queued at its tenant's turn (dispatch/tenant-turns.ts) as bulk
 * jobs are: tenants take turns however many files or chunks each has, and a tenant's files share its turns
 * (each next chunk comes from its file whose last turn is oldest). A tenant has at most
 * IMPORT_TENANT_CONCURRENCY chunks queued or running; each chunk written queues the tenant's next, in the
 * chunk's own transaction.
 */
export const IMPORTS_QUEUE = 'imports';
export const IMPORT_JOB_NAME = 'import' as const;

export interface ImportChunkData {
  tenantId: string;
  importId: string;
  chunk: number;
}

/** A chunk queued at its tenant's turn, as PostgreSQL records it. */
export interface QueuedChunk extends ImportChunkData {
  /** Its job id: adding it again while it waits or runs is a no-op. */
  id: string;
  turn: number;
}

export type ImportsQueue = Queue<ImportChunkData, void, typeof IMPORT_JOB_NAME>;

/** The job id of an import's chunk. */
export function importChunkJobId(importId: string, chunk: number): string {
  return `${importId}-chunk-${chunk}`;
}

/**
 * A chunk's job is removed once done (the chunk's row is the record); a failed one stays a day for
 * inspection and the dispatcher gives it another run while its import is unfinished.
 */
export const importJobOptions: JobsOptions = {
  removeOnComplete: true,
  removeOnFail: { age: 24 * 3_600, count: 1_000 },
  attempts: 3,
  backoff: { type: 'exponential', delay: 1_000 },
};

/**
 * Lock settings of import workers: a killed worker's chunk is back in the queue within seconds; a chunk that
 * stalls is harmless (its transaction was rolled back with the connection), so it may stall often.
 */
export const IMPORT_WORKER_LOCKS = { lockDuration: 10_000, stalledInterval: 2_000, maxStalledCount: 100 } as const;

export function createImportsQueue(settings: QueueSettings): ImportsQueue {
  return new Queue<ImportChunkData, void, typeof IMPORT_JOB_NAME>(IMPORTS_QUEUE, {
    connection: settings.connection,
    prefix: settings.prefix,
    defaultJobOptions: importJobOptions,
    streams: { events: { maxLen: 1_000 } },
    telemetry: queueTelemetry(),
  });
}

/**
 * A chunk written queues its tenant's next chunk, often of another file: carried on, one trace would run
 * through every chunk the tenant ever imports. A chunk's job starts no trace of its own context; the chunk
 * is a span of its upload's trace instead, from the context stored with the import (ImportRunner).
 */
const IMPORT_CHUNK_TELEMETRY = { omitContext: true };

/** A queued chunk's job: its id, and its tenant's turn as its priority. */
export function importChunkJob(chunk: QueuedChunk): QueueEntry<ImportsQueue> {
  const { tenantId, importId } = chunk;
  return {
    name: IMPORT_JOB_NAME,
    data: { tenantId, importId, chunk: chunk.chunk },
    opts: { jobId: chunk.id, priority: turnPriority(chunk.turn), telemetry: IMPORT_CHUNK_TELEMETRY },
  };
}

/** Hands queued chunks to the imports queue (the dispatcher adds any that did not get there). */
export async function addImportChunks(queue: ImportsQueue, chunks: QueuedChunk[]): Promise<void> {
  if (chunks.length) await queue.addBulk(chunks.map(importChunkJob));
}
