import { Job, type Queue } from 'bullmq';
import { PollLoop, within, type Logger } from '@wms/platform';

/** A unit of work PostgreSQL holds and BullMQ runs under the unit's id. */
export interface DispatchUnit {
  id: string;
  /** Handed to BullMQ before: a unit Redis does not know then was lost (a restart without data, FLUSHALL). */
  handedBefore: boolean;
}

/** A job of queue `Q` as `addBulk` takes it (the dispatcher sets its id to the unit's). */
export type QueueEntry<Q extends Queue> = Parameters<Q['addBulk']>[0][number];

/** What the dispatcher needs of a kind of unit: its rows, its job, and what a job BullMQ gave up means. */
export interface DispatchSource<Unit extends DispatchUnit, Q extends Queue> {
  /** For log lines: `bulk jobs`, `import chunks`. */
  label: string;
  /**
   * Locks up to `limit` unfinished units never handed to BullMQ or handed more than `staleMs` ago, runs
   * `hand` over them, and records the hand-over in the same transaction; answers how many `hand` added.
   */
  dispatch(limit: number, staleMs: number, hand: (units: Unit[]) => Promise<string[]>): Promise<number>;
  /** The unit's job: its name, its small payload and its options (its priority among them). */
  job(unit: Unit): QueueEntry<Q>;
  /**
   * BullMQ failed the unit's job every attempt: `retry` gives it another run; or the unit is ended. Called
   * after the pass that found it has committed, so ending it may take the unit's row lock.
   */
  failed(unit: Unit, retry: () => Promise<void>): Promise<void>;
  /** Before each pass: units that should be queued and are not yet (imports: turns of tenants short of them). */
  beforePass?(): Promise<void>;
}

export interface DispatcherOptions {
  pollIntervalMs?: number;
  /** A unit handed to BullMQ this long ago and still unfinished is looked up in Redis again. */
  recheckAfterMs?: number;
  batchSize?: number;
  /** Bound on one Redis call, so a Redis that hangs does not stall the loop. */
  redisTimeoutMs?: number;
}

/**
 * Keeps BullMQ in step with units of work stored in PostgreSQL, as the outbox relay feeds webhook
 * deliveries: units the producer could not hand over (Redis away) are added, and unfinished units handed
 * over a while ago are looked up in Redis again, so a job Redis lost is added again; on start and on every
 * Redis (re)connection every unfinished unit is looked up at once. Adding is idempotent (the job id is the
 * unit's), so several dispatchers (one per worker process) share the work through the rows' locks. A unit
 * whose job BullMQ gave up on is ended (or retried) once the pass's transaction has let its row go: ending
 * it on another connection while the pass still holds the row would wait on a lock this process holds.
 */
export class JobDispatcher<Unit extends DispatchUnit, Q extends Queue> {
  private readonly loop: PollLoop;
  private recheckAll = false;
  private readonly recheckAfterMs: number;
  private readonly batchSize: number;
  private readonly redisTimeoutMs: number;

  constructor(
    private readonly source: DispatchSource<Unit, Q>,
    private readonly queue: Q,
    private readonly logger: Logger,
    options: DispatcherOptions = {},
  ) {
    this.loop = new PollLoop(() => this.pass(), {
      intervalMs: options.pollIntervalMs ?? 1_000,
      onError: (error) =>
        this.logger.warn({ err: error }, `${source.label}: dispatch failed; they wait in PostgreSQL and are retried`),
    });
    this.recheckAfterMs = options.recheckAfterMs ?? 10_000;
    this.batchSize = options.batchSize ?? 200;
    this.redisTimeoutMs = options.redisTimeoutMs ?? 5_000;
  }

  /** One pass; `recheckAll` looks up every unfinished unit at once (after Redis came back). Returns jobs added. */
  async runOnce(recheckAll = false): Promise<number> {
    await this.source.beforePass?.();
    let added = 0;
    for (;;) {
      const staleMs = recheckAll ? 0 : this.recheckAfterMs;
      const failed: Unit[] = [];
      const pass = await this.source.dispatch(this.batchSize, staleMs, (units) => this.hand(units, failed));
      await this.endFailed(failed);
      added += pass;
      // A full batch may have more behind it; a recheck of everything goes on until none is left unchecked.
      if (pass < this.batchSize) return added;
    }
  }

  start(redisReady?: { on(event: 'ready', listener: () => void): unknown }): void {
    if (this.loop.running) return;
    // A worker starting may meet a Redis that lost its data before: its first pass looks up every unit.
    this.recheckAll = true;
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

  /** Adds the units Redis does not know; collects in `failed` those whose job BullMQ gave up on. */
  private async hand(units: Unit[], failed: Unit[]): Promise<string[]> {
    const states = await this.bounded(
      Promise.all(units.map((unit) => (unit.handedBefore ? this.queue.getJobState(unit.id) : 'unknown'))),
    );
    const missing = units.filter((_unit, index) => states[index] === 'unknown');
    if (missing.length) {
      await this.bounded(this.queue.addBulk(missing.map((unit) => this.jobOf(unit))));
      const lost = missing.filter((unit) => unit.handedBefore).length;
      if (lost) this.logger.warn({ jobs: lost }, `${this.source.label} unknown to Redis were dispatched again`);
    }
    failed.push(...units.filter((_unit, index) => states[index] === 'failed'));
    return missing.map((unit) => unit.id);
  }

  /**
   * Ends or retries, each on its own, the units whose job BullMQ gave up on. One that fails stays
   * unfinished, its hand-over recorded: the pass after `recheckAfterMs` finds its job failed again.
   */
  private async endFailed(units: Unit[]): Promise<void> {
    for (const unit of units) {
      const retry = async () => {
        await this.bounded((async () => (await Job.fromId(this.queue, unit.id))?.retry('failed'))());
      };
      await this.source
        .failed(unit, retry)
        .catch((error: unknown) =>
          this.logger.warn(
            { err: error, jobId: unit.id },
            `${this.source.label}: a job BullMQ gave up on was not ended`,
          ),
        );
    }
  }

  private jobOf(unit: Unit): QueueEntry<Q> {
    const entry = this.source.job(unit);
    return { ...entry, opts: { ...entry.opts, jobId: unit.id } };
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
