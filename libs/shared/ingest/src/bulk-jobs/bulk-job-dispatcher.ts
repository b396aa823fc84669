import { Job } from 'bullmq';
import { PollLoop } from '@wms/platform';
import { within } from '@wms/platform';
import type { Logger } from '@wms/platform';
import { ingestJobData, ingestJobPriority, type IngestQueue } from './ingest.contract.js';
import type { BulkJobsRepository, DispatchRow } from './bulk-jobs.repository.js';

export interface DispatcherOptions {
  pollIntervalMs?: number;
  /** A job handed to BullMQ this long ago and still unfinished is looked up in Redis again. */
  recheckAfterMs?: number;
  batchSize?: number;
  /** Bound on one Redis call, so a Redis that hangs does not stall the loop. */
  redisTimeoutMs?: number;
}

/**
 * Feeds BullMQ from the bulk_jobs table, as the outbox relay feeds webhook deliveries: jobs the gateway
 * could not hand over (Redis away) are added, and unfinished jobs handed over a while ago are looked up in
 * Redis again, so a job Redis lost (restart without data, FLUSHALL, failover) is added again. A job BullMQ
 * failed without the worker recording it (stalled too often) is marked failed, or, when its entries are
 * written already, retried so that its result is stored. Adding is idempotent (the job id is the row's).
 */
export class BulkJobDispatcher {
  private readonly loop: PollLoop;
  private recheckAll = false;
  private readonly recheckAfterMs: number;
  private readonly batchSize: number;
  private readonly redisTimeoutMs: number;

  constructor(
    private readonly repository: BulkJobsRepository,
    private readonly queue: IngestQueue,
    private readonly logger: Logger,
    options: DispatcherOptions = {},
  ) {
    this.loop = new PollLoop(() => this.pass(), {
      intervalMs: options.pollIntervalMs ?? 1_000,
      onError: (error) =>
        this.logger.warn({ err: error }, 'bulk job dispatch failed; jobs wait in PostgreSQL and are retried'),
    });
    this.recheckAfterMs = options.recheckAfterMs ?? 10_000;
    this.batchSize = options.batchSize ?? 200;
    this.redisTimeoutMs = options.redisTimeoutMs ?? 5_000;
  }

  /** One pass; `recheckAll` looks up every unfinished job at once (after Redis came back). Returns jobs added. */
  async runOnce(recheckAll = false): Promise<number> {
    let added = 0;
    for (;;) {
      const pass = await this.repository.dispatch(this.batchSize, recheckAll ? 0 : this.recheckAfterMs, (rows) =>
        this.hand(rows),
      );
      added += pass;
      // A full batch may have more behind it; a recheck of everything goes on until none is left unchecked.
      if (pass < this.batchSize) return added;
    }
  }

  private async hand(rows: DispatchRow[]): Promise<string[]> {
    const states = await this.bounded(
      Promise.all(rows.map((row) => (row.handedBefore ? this.queue.getJobState(row.id) : 'unknown'))),
    );
    const missing = rows.filter((_row, index) => states[index] === 'unknown');
    if (missing.length) {
      await this.bounded(
        this.queue.addBulk(
          missing.map((row) => ({
            name: row.entity,
            data: ingestJobData(row),
            opts: { jobId: row.id, priority: ingestJobPriority(row.lane, row.turn) },
          })),
        ),
      );
      const lost = missing.filter((row) => row.handedBefore).length;
      if (lost) this.logger.warn({ jobs: lost }, 'bulk jobs unknown to Redis were dispatched again');
    }
    for (const [index, row] of rows.entries()) {
      if (states[index] !== 'failed') continue;
      if (row.state === 'written') {
        const job = await Job.fromId(this.queue, row.id);
        await job?.retry('failed');
      } else {
        await this.repository.fail(row.id, 'the ingest queue gave the job up');
      }
    }
    return missing.map((row) => row.id);
  }

  start(redisReady?: { on(event: 'ready', listener: () => void): unknown }): void {
    if (this.loop.running) return;
    // A worker starting may meet a Redis that lost its data before: its first pass looks up every job.
    this.recheckAll = true;
    // Every (re)connection may find a Redis that lost its data: look up every unfinished job then.
    redisReady?.on('ready', () => this.nudge(true));
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  nudge(recheckAll = false): void {
    if (recheckAll) this.recheckAll = true;
    this.loop.wake();
  }

  /** One pass of the loop; a recheck of everything that fails is tried again on the next. */
  private async pass(): Promise<void> {
    const recheckAll = this.recheckAll;
    this.recheckAll = false;
    try {
      await this.runOnce(recheckAll);
    } catch (error) {
      if (recheckAll) this.recheckAll = true;
      throw error;
    }
  }

  private bounded<T>(promise: Promise<T>): Promise<T> {
    return within(
      promise,
      this.redisTimeoutMs,
      () => new Error(`Redis did not answer within ${this.redisTimeoutMs} ms`),
    );
  }
}
