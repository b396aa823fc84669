import { unitOfWork, type Database, type Logger } from '@wms/platform';
import { JobDispatcher, type DispatchSource } from '../dispatch/index.js';
import { importChunkJob, type ImportsQueue } from './imports.contract.js';
import type { DispatchChunk, ImportTurnsRepository } from './import-turns.repository.js';

export type ImportDispatcher = JobDispatcher<DispatchChunk, ImportsQueue>;

/** Tenants short of turns looked at per pass. */
const TENANTS_PER_PASS = 200;

/**
 * Import chunks as the dispatcher's units: a queued chunk is a job of the imports queue at its tenant's
 * turn. Before each pass, every tenant with chunks to write and fewer than its chains queued gets its turns
 * (a worker that died between a chunk and the next, an upload whose turns were not queued, an import that
 * ended with chunks queued); a chunk's job BullMQ failed is given another run (the chunk's own attempts
 * fail its import after five).
 */
export function importChunkSource(
  db: Database,
  turns: ImportTurnsRepository,
  chains: number,
): DispatchSource<DispatchChunk, ImportsQueue> {
  return {
    label: 'import chunks',
    async beforePass() {
      for (const tenantId of await turns.tenantsShortOfTurns(chains, TENANTS_PER_PASS))
        await unitOfWork(db, (work) => turns.queueTurns(tenantId, chains, { transaction: work, handing: false }));
    },
    dispatch: (limit, staleMs, hand) => unitOfWork(db, (work) => turns.dispatch(limit, staleMs, hand, work)),
    job: importChunkJob,
    failed: (_chunk, retry) => retry(),
  };
}

/** Feeds the imports queue from the import chunks (every ingest worker runs one). */
export function createImportDispatcher(
  db: Database,
  turns: ImportTurnsRepository,
  queue: ImportsQueue,
  logger: Logger,
  chains: number,
): ImportDispatcher {
  return new JobDispatcher(importChunkSource(db, turns, chains), queue, logger, { pollIntervalMs: 2_000 });
}
