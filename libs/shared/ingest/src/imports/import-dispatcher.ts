import { Job } from 'bullmq';
import type { Logger } from '@wms/platform';
import { addImportTurns, importSlots, importTurnId, type ImportsQueue } from './imports.contract.js';
import type { ImportsRepository } from './imports.repository.js';

/** Tenants with unfinished imports looked at per pass. */
const BATCH = 200;

/**
 * Keeps the chains of turns of every tenant with an unfinished import in the imports queue: a gateway that
 * could not reach Redis, a Redis that lost its data, a chain that ended just as an upload of its tenant was
 * committed, or a turn that failed all come back on the next pass. Adding a turn that is there already is a
 * no-op (its id is fixed).
 */
export class ImportDispatcher {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private lastErrorLog = 0;

  constructor(
    private readonly repository: ImportsRepository,
    private readonly queue: ImportsQueue,
    private readonly logger: Logger,
    /** The chains of turns each tenant has (IMPORT_TENANT_CONCURRENCY). */
    private readonly chains: number,
    private readonly intervalMs = 2_000,
  ) {}

  async runOnce(): Promise<void> {
    for (const tenantId of await this.repository.tenantsWithUnfinished(BATCH)) {
      const lost: number[] = [];
      for (const slot of importSlots(this.chains)) {
        const turnIds = [importTurnId(tenantId, slot, 0), importTurnId(tenantId, slot, 1)];
        const states = await Promise.all(turnIds.map((turnId) => this.queue.getJobState(turnId)));
        const live = states.some((state) => state !== 'unknown' && state !== 'failed' && state !== 'completed');
        if (live) continue;
        const failed = states.indexOf('failed');
        if (failed === -1) lost.push(slot);
        else await (await Job.fromId(this.queue, turnIds[failed]!))?.retry('failed');
      }
      if (lost.length) await addImportTurns(this.queue, tenantId, lost);
    }
  }

  start(): void {
    const tick = () => {
      this.running = this.runOnce()
        .catch((error: unknown) => this.logThrottled(error))
        .finally(() => {
          if (this.timer !== undefined) this.timer = setTimeout(tick, this.intervalMs);
        });
    };
    this.timer = setTimeout(tick, 0);
  }

  async stop(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }

  private logThrottled(error: unknown): void {
    if (Date.now() - this.lastErrorLog < 10_000) return;
    this.lastErrorLog = Date.now();
    this.logger.warn({ err: error }, 'import dispatch failed; imports wait in PostgreSQL and are retried');
  }
}
