import { setTimeout as delay } from 'node:timers/promises';
import { Job, QueueEvents } from 'bullmq';
import {
  AppError,
  INGEST_QUEUE,
  createIngestQueue,
  closeRedis,
  createRedis,
  settleWithin,
  type AppLifecycle,
  type IngestJobData,
  type IngestJobName,
  type IngestJobResult,
  type IngestQueue,
  type Runtime,
} from '@wms/shared';

type IngestJob = Job<IngestJobData, IngestJobResult, IngestJobName>;

export type JobOutcome = { state: 'completed'; result: IngestJobResult } | { state: 'failed' } | { state: 'pending' };
export type PublicJobState = 'queued' | 'active' | 'completed' | 'failed';

const POLL_MS = 100;

/**
 * The gateway's side of the ingest queue: enqueue one job per bulk call and wait for it, boundedly.
 * The wait listens to QueueEvents; a lost or late event, a closing gateway or a Redis hiccup all fall
 * back to reading the job's state, and the wait never outlives its deadline.
 */
export class IngestJobs {
  private readonly queue: IngestQueue;
  private readonly events: QueueEvents;
  private readonly eventsRedis;
  private draining = new AbortController();
  private readonly closing = new AbortController();

  constructor(runtime: Runtime, lifecycle: AppLifecycle) {
    const { config } = runtime;
    // Producer connection (fails fast when Redis is away); QueueEvents needs a blocking one of its own,
    // which it makes by duplicating the one given: that one is only a template and never connects. BullMQ's
    // close() waits for the duplicate to be ready, so once closing it stops retrying and the close can end.
    this.queue = createIngestQueue({ connection: runtime.redis, prefix: config.redisKeyPrefix });
    this.eventsRedis = createRedis(config, 'subscriber', 'gateway-queue-events', {
      lazyConnect: true,
      retryStrategy: (attempt) => (this.closing.signal.aborted ? null : Math.min(attempt * 50, 2_000)),
    });
    this.events = new QueueEvents(INGEST_QUEUE, { connection: this.eventsRedis, prefix: config.redisKeyPrefix });
    this.events.on('error', () => undefined);
    this.queue.on('error', () => undefined);
    // Every bulk call waiting on its job listens for the queue closing (BullMQ's waitUntilFinished) and
    // removes its listener when done: many concurrent calls are normal, not a leak.
    this.queue.setMaxListeners(0);
    lifecycle.onDrain(() => this.draining.abort());
    lifecycle.onClose(async () => {
      this.closing.abort();
      // BullMQ's close waits for a connection that may never come when Redis is away: bound it.
      await settleWithin(this.events.close(), 2_500);
      await settleWithin(this.queue.close(), 2_000);
      await closeRedis(this.eventsRedis);
    });
  }

  /**
   * Adds the job under `jobId`. An id already used (a retry of the same Idempotency-Key) returns the
   * existing job instead of a second one; a failed one is retried.
   */
  async enqueue(name: IngestJobName, data: IngestJobData, jobId: string, mayExist: boolean): Promise<IngestJob> {
    try {
      const job = await this.queue.add(name, data, { jobId });
      if (mayExist && (await job.getState()) === 'failed') await job.retry('failed');
      return job;
    } catch {
      throw new AppError(503, 'SERVICE_UNAVAILABLE', 'The ingest queue is not available; retry later');
    }
  }

  async waitForResult(job: IngestJob, timeoutMs: number): Promise<JobOutcome> {
    const deadline = Date.now() + timeoutMs;
    const jobId = job.id!;
    if (timeoutMs > 0 && !this.draining.signal.aborted) {
      try {
        const result = await this.bounded(job.waitUntilFinished(this.events, timeoutMs), timeoutMs);
        if (result !== undefined) return { state: 'completed', result };
      } catch {
        // Failed, timed out, or the event never came: the job's state decides below.
      }
    }
    for (;;) {
      const outcome = await this.outcome(jobId);
      if (outcome.state !== 'pending' || Date.now() + POLL_MS > deadline || this.draining.signal.aborted) return outcome;
      await delay(POLL_MS);
    }
  }

  /** State and result of a job, or null when there is no such job of this key. */
  async read(jobId: string, apiKeyId: string): Promise<{ state: PublicJobState; result: IngestJobResult | null } | null> {
    // State first, then the job: a job read before it completed would show `completed` without its result.
    const state = await this.queue.getJobState(jobId);
    if (state === 'unknown') return null;
    const job = await Job.fromId<IngestJobData, IngestJobResult, IngestJobName>(this.queue, jobId);
    if (!job || job.data.apiKeyId !== apiKeyId) return null;
    const publicState: PublicJobState = state === 'completed' || state === 'failed' || state === 'active' ? state : 'queued';
    return { state: publicState, result: state === 'completed' ? job.returnvalue : null };
  }

  private async outcome(jobId: string): Promise<JobOutcome> {
    try {
      const state = await this.queue.getJobState(jobId);
      if (state === 'failed') return { state: 'failed' };
      if (state !== 'completed') return { state: 'pending' };
      const job = await Job.fromId<IngestJobData, IngestJobResult, IngestJobName>(this.queue, jobId);
      return job ? { state: 'completed', result: job.returnvalue } : { state: 'pending' };
    } catch {
      return { state: 'pending' };
    }
  }

  /** Resolves undefined when the deadline passes or the gateway starts draining, whichever is first. */
  private bounded<T>(promise: Promise<T>, timeoutMs: number): Promise<T | undefined> {
    const signal = AbortSignal.any([AbortSignal.timeout(timeoutMs), this.draining.signal]);
    return new Promise<T | undefined>((resolve, reject) => {
      const onAbort = () => resolve(undefined);
      if (signal.aborted) return resolve(undefined);
      signal.addEventListener('abort', onAbort, { once: true });
      promise.then(
        (value) => {
          signal.removeEventListener('abort', onAbort);
          resolve(value);
        },
        (error: unknown) => {
          signal.removeEventListener('abort', onAbort);
          reject(error);
        },
      );
    });
  }
}
