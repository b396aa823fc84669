import { unitOfWork, within, type Database } from '@wms/platform';
import { addImportChunks, type ImportsQueue, type QueuedChunk } from './imports.contract.js';
import type { ImportTurnsRepository } from './import-turns.repository.js';

/**
 * Queues a tenant's next chunks and hands them to the imports queue: after an upload, and after each chunk
 * (whose transaction queued them). What does not reach Redis within the bound is left to the dispatcher.
 */
export class ImportTurns {
  constructor(
    private readonly db: Database,
    readonly repository: ImportTurnsRepository,
    private readonly queue: ImportsQueue,
    /** Chunks of one tenant queued or running at once (IMPORT_TENANT_CONCURRENCY). */
    readonly chains: number,
    private readonly addMs = 500,
  ) {}

  /** Queues as many of the tenant's chunks as it lacks, and hands them over. */
  async next(tenantId: string): Promise<void> {
    const queued = await unitOfWork(this.db, (work) =>
      this.repository.queueTurns(tenantId, this.chains, { transaction: work, handing: true }),
    );
    await this.hand(queued);
  }

  /** Hands queued chunks to BullMQ; a Redis away or slow leaves them to the dispatcher's next pass. */
  async hand(queued: QueuedChunk[]): Promise<void> {
    if (!queued.length) return;
    try {
      await within(addImportChunks(this.queue, queued), this.addMs);
    } catch {
      await this.repository.notDispatched(queued);
    }
  }
}
