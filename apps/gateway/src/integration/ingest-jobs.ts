import { setTimeout as delay } from 'node:timers/promises';
import { Job, QueueEvents } from 'bullmq';
import {
  AppError,
  INGEST_QUEUE,
  createIngestQueue,
  createRedis,
  type AppLifecycle,
  type IngestJobData,
  type IngestJobName,
  type IngestJobResult,
  type IngestQueue,
  type Runtime,
} from '@wms/shared';

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

  constructor(runtime: Runtime, lifecycle: AppLifecycle) {
    const { config } = runtime;
    // Producer connection (fails fast when Redis is away); QueueEvents needs a blocking one of its own.
    this.queue = createIngestQueue({ connection: runtime.redis, prefix: config.redisKeyPrefix });
    this.eventsRedis = createRedis(config, 'subscriber', 'gateway-queue-events');
    this.events = new QueueEvents(INGEST_QUEUE, { connection: this.eventsRedis, prefix: config.redisKeyPrefix });
    this.events.on('error', () => undefined);
    this.queue.on('error', () => undefined);
    lifecycle.onDrain(() => this.draining.abort());
    lifecycle.onClose(async () => {
      await this.events.close().catch(() => undefined);
      await this.queue.close().catch(() => undefined);
      await this.eventsRedis.quit().catch(() => this.eventsRedis.disconnect());
    });
  }

  /**
   * Adds the job under `jobId`. An id already used (a retry of the same Idempotency-Key) returns the
   * existing job instead of a second one; a failed one is retried.
   */
  async enqueue(name: IngestJobName, data: IngestJobData, jobId: string, mayExist: boolean): Promise<string> {
    try {
      const job = await this.queue.add(name, data, { jobId });
      if (mayExist && (await job.getState()) === 'failed') await job.retry('failed');
      return job.id ?? jobId;
    } catch (error) {
      throw new AppError(503, 'SERVICE_UNAVAILABLE', 'The ingest queue is not available; retry later', undefined, undefined);
    }
  }

  async waitForResult(jobId: string, timeoutMs: number): Promise<JobOutcome> {
    const deadline = Date.now() + timeoutMs;
    const job = await Job.fromId<IngestJobData, IngestJobResult, IngestJobName>(this.queue, jobId);
    if (job && timeoutMs > 0 && !this.draining.signal.aborted) {
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
    const job = await Job.fromId<IngestJobData, IngestJobResult, IngestJobName>(this.queue, jobId);
    if (!job || job.data.apiKeyId !== apiKeyId) return null;
    const state = await job.getState();
    if (state === 'unknown') return null;
    const publicState: PublicJobState = state === 'completed' || state === 'failed' || state === 'active' ? state : 'queued';
    return { state: publicState, result: state === 'completed' ? job.returnvalue : null };
  }

  private async outcome(jobId: string): Promise<JobOutcome> {
    try {
      const job = await Job.fromId<IngestJobData, IngestJobResult, IngestJobName>(this.queue, jobId);
      const state = job ? await job.getState() : 'unknown';
      if (job && state === 'completed') return { state: 'completed', result: job.returnvalue };
      if (state === 'failed') return { state: 'failed' };
      return { state: 'pending' };
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
