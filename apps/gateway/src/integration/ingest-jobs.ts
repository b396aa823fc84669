import { setTimeout as delay } from 'node:timers/promises';
import { Job, QueueEvents } from 'bullmq';
import {
  AppError,
  BulkJobsRepository,
  INGEST_QUEUE,
  ingestJobData,
  createIngestQueue,
  closeRedis,
  createRedis,
  closeWithin,
  type AppLifecycle,
  type BulkResult,
  type IngestJobData,
  type IngestJobName,
  type IngestJobResult,
  type IngestQueue,
  type NewBulkJob,
  type Runtime,
  type Submission,
  queuePrefix,
} from '@wms/shared';

type IngestJob = Job<IngestJobData, IngestJobResult, IngestJobName>;

/** A finished job's result is its stored JSON text (the bulk envelope without requestId). */
export type JobOutcome = { state: 'completed'; resultJson: string } | { state: 'failed' } | { state: 'pending' };
export type PublicJobState = 'queued' | 'active' | 'completed' | 'failed';
export interface PublicJob {
  state: PublicJobState;
  result: BulkResult | null;
  /** The request that submitted the job, and the W3C trace id it came with, when it came with one. */
  requestId: string;
  traceId?: string;
}

const POLL_MS = 100;
/** A job's running state is a detail: Redis gets this long to tell it. */
const REDIS_READ_MS = 300;
/** How long handing a stored job to BullMQ may take before the dispatcher is left to do it. */
const REDIS_WRITE_MS = 500;

/** The promise's value, or undefined when it fails or takes longer than `ms`. */
async function settled<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([promise.catch(() => undefined), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The gateway's side of bulk jobs: store one job per bulk call in PostgreSQL, hand it to the ingest queue
 * and wait for it, boundedly. The wait listens to QueueEvents; a lost or late event, a closing gateway or
 * a Redis hiccup all fall back to reading the job's row, and the wait never outlives its deadline.
 */
export class IngestJobs {
  private readonly repository: BulkJobsRepository;
  private readonly queue: IngestQueue;
  private readonly events: QueueEvents;
  private readonly eventsRedis;
  private draining = new AbortController();
  private readonly closing = new AbortController();

  constructor(runtime: Runtime, lifecycle: AppLifecycle) {
    const { config } = runtime;
    this.repository = new BulkJobsRepository(runtime.db);
    // Producer connection (fails fast when Redis is away); QueueEvents needs a blocking one of its own,
    // which it makes by duplicating the one given: that one is only a template and never connects. BullMQ's
    // close() waits for the duplicate to be ready, so once closing it stops retrying and the close can end.
    this.queue = createIngestQueue({ connection: runtime.redis, prefix: queuePrefix(config) });
    this.eventsRedis = createRedis(config, 'subscriber', 'gateway-queue-events', {
      lazyConnect: true,
      retryStrategy: (attempt) => (this.closing.signal.aborted ? null : Math.min(attempt * 50, 2_000)),
    });
    this.events = new QueueEvents(INGEST_QUEUE, { connection: this.eventsRedis, prefix: queuePrefix(config) });
    this.events.on('error', () => undefined);
    this.queue.on('error', () => undefined);
    // Every bulk call waiting on its job listens for the queue closing (BullMQ's waitUntilFinished) and
    // removes its listener when done: many concurrent calls are normal, not a leak.
    this.queue.setMaxListeners(0);
    lifecycle.onDrain(() => this.draining.abort());
    lifecycle.onClose(async () => {
      this.closing.abort();
      // BullMQ's close waits for a connection that may never come when Redis is away: bound it.
      await closeWithin(this.events, 2_500);
      await closeWithin(this.queue, 2_000);
      await closeRedis(this.eventsRedis);
    });
  }

  /**
   * Stores the job in PostgreSQL (503 when it cannot be stored: nothing was accepted), then hands it to
   * BullMQ. A Redis that fails here costs nothing but time: the dispatcher hands the stored job over once
   * Redis answers. The same id again (a retry of one Idempotency-Key) re-attaches to the job stored
   * under it, and gives a failed one another run. Answers the BullMQ job when Redis took it.
   */
  async submit(job: NewBulkJob): Promise<IngestJob | undefined> {
    let submission: Submission;
    try {
      submission = await this.repository.submit(job);
    } catch {
      throw new AppError(503, 'SERVICE_UNAVAILABLE', 'The bulk job could not be stored; retry later');
    }
    if (submission.kind === 'existing' && (submission.state === 'completed' || submission.state === 'failed'))
      return undefined;
    // Bounded: a Redis that hangs (frozen, failing over) must not hold the request. Should the add still land
    // later, the dispatcher's add of the same job id is a no-op and the job's row lets its entries be written once.
    const added = await settled(this.queue.add(job.entity, ingestJobData(job), { jobId: job.id }), REDIS_WRITE_MS);
    if (!added) {
      await this.repository.notDispatched(job.id).catch(() => undefined);
      return undefined;
    }
    if (submission.kind === 'retried' && (await settled(added.getState(), REDIS_READ_MS)) === 'failed')
      await settled(added.retry('failed'), REDIS_READ_MS);
    return added;
  }

  /**
   * Waits for the job, at most `timeoutMs`: on its completion event when Redis has it, then (a lost or
   * late event, no Redis, a draining gateway) on its row.
   */
  async waitForResult(jobId: string, job: IngestJob | undefined, timeoutMs: number): Promise<JobOutcome> {
    const deadline = Date.now() + timeoutMs;
    if (job && timeoutMs > 0 && !this.draining.signal.aborted) {
      try {
        // The completion event carries counts only; the result is read from the row below.
        await this.bounded(job.waitUntilFinished(this.events, timeoutMs), timeoutMs);
      } catch {
        // Failed, timed out, or the event never came: the job's row decides below.
      }
    }
    for (;;) {
      const outcome = await this.outcome(jobId);
      if (outcome.state !== 'pending' || Date.now() + POLL_MS > deadline || this.draining.signal.aborted)
        return outcome;
      await delay(POLL_MS);
    }
  }

  /**
   * A job of this key, as PostgreSQL knows it (Redis only tells a running job from a waiting one), or null
   * when there is no such job of this key.
   */
  async read(jobId: string, apiKeyId: string): Promise<PublicJob | null> {
    const job = await this.repository.status(jobId);
    if (!job || job.apiKeyId !== apiKeyId) return null;
    const base = { requestId: job.requestId, ...(job.traceId ? { traceId: job.traceId } : {}), result: null };
    switch (job.state) {
      case 'completed':
        return { ...base, state: 'completed', result: JSON.parse(job.result!) as BulkResult };
      case 'failed':
        return { ...base, state: 'failed' };
      case 'written':
        return { ...base, state: 'active' };
      case 'queued': {
        const inRedis = await settled(this.queue.getJobState(jobId), REDIS_READ_MS);
        return { ...base, state: inRedis === 'active' ? 'active' : 'queued' };
      }
    }
  }

  private async outcome(jobId: string): Promise<JobOutcome> {
    try {
      const job = await this.repository.status(jobId);
      if (job?.state === 'completed') return { state: 'completed', resultJson: job.result! };
      if (job?.state === 'failed') return { state: 'failed' };
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
