import { setMaxListeners } from 'node:events';
import type { Job } from 'bullmq';
import {
  AppError,
  closeWithin,
  settleWithin,
  unitOfWork,
  type AppLifecycle,
  type Database,
  type Runtime,
  queuePrefix,
} from '@wms/platform';
import type { BulkResult, BulkResultText } from '../integration/index.js';
import type { EventsService } from '@wms/events';
import { BulkJobEnds } from './bulk-job-ends.js';
import { BulkJobSignals, type JobSignal } from './bulk-job-signals.js';
import { LateAcceptedMarks } from './late-accepted-marks.js';
import { BulkJobsRepository, type NewBulkJob, type Submission } from './bulk-jobs.repository.js';
import {
  ingestJobData,
  ingestJobPriority,
  createIngestQueue,
  type IngestJobData,
  type IngestJobName,
  type IngestJobResult,
  type IngestQueue,
} from './ingest.contract.js';

type IngestJob = Job<IngestJobData, IngestJobResult, IngestJobName>;

/** A finished job's result is its stored JSON text (the bulk envelope without requestId) and its status. */
export type JobOutcome = { state: 'completed'; result: BulkResultText } | { state: 'failed' } | { state: 'pending' };
export type PublicJobState = 'queued' | 'active' | 'completed' | 'failed';
export interface PublicJob {
  state: PublicJobState;
  result: BulkResult | null;
  /** The request that submitted the job, and the W3C trace id it came with, when it came with one. */
  requestId: string;
  traceId?: string;
}

/** A job's running state is a detail: Redis gets this long to tell it. */
const REDIS_READ_MS = 300;
/** How long handing a stored job to BullMQ may take before the dispatcher is left to do it. */
const REDIS_WRITE_MS = 500;
/**
 * Once a bulk call's wait ran out, how long its 202 may wait for the job's row lock (held by a run that is
 * ending the job, say), and how long for PostgreSQL's answer at all: the answer comes at most this long
 * after BULK_SYNC_TIMEOUT_MS.
 */
const ANSWER_LOCK_WAIT_MS = 500;
const ANSWER_MS = 1_000;

/** A submitted job and the signal that tells its wait when to look at its row. */
export interface Submitted {
  jobId: string;
  signal: JobSignal;
  /** False when the job had finished before (a retry of one Idempotency-Key): its row answers at once. */
  running: boolean;
}

/**
 * The gateway's side of bulk jobs: store one job per bulk call in PostgreSQL, hand it to the ingest queue
 * and wait for it, boundedly. The wait is woken by PostgreSQL's word that the job finished (a trigger on
 * bulk_jobs, heard by BulkJobSignals) and then reads the job's row once; without a listening connection
 * it reads the row every 100 ms. A closing gateway ends every wait, and no wait outlives its deadline.
 */
export class IngestJobs {
  private readonly db: Database;
  private readonly repository: BulkJobsRepository;
  private readonly queue: IngestQueue;
  private readonly signals: BulkJobSignals;
  private readonly draining = new AbortController();
  private readonly lateMarks: LateAcceptedMarks;

  constructor(runtime: Runtime, lifecycle: AppLifecycle, events: Pick<EventsService, 'append'>) {
    const { config } = runtime;
    this.db = runtime.db;
    this.repository = new BulkJobsRepository(runtime.db);
    const ends = new BulkJobEnds(runtime.db, this.repository, events);
    this.lateMarks = new LateAcceptedMarks(runtime.db, this.repository, ends, runtime.logger);
    // Producer connection: fails fast when Redis is away (the dispatcher hands the stored job over later).
    this.queue = createIngestQueue({ connection: runtime.redis, prefix: queuePrefix(config) });
    this.queue.on('error', () => undefined);
    this.signals = new BulkJobSignals(config, runtime.logger);
    this.signals.start();
    // Every waiting bulk call listens for the drain: many at once are normal, not a leak.
    setMaxListeners(0, this.draining.signal);
    lifecycle.onDrain(() => this.draining.abort());
    lifecycle.onClose(async () => {
      await this.lateMarks.close(2_000);
      await this.signals.close();
      // BullMQ's close waits for a connection that may never come when Redis is away: bound it.
      await closeWithin(this.queue, 2_000);
    });
  }

  /**
   * Stores the job in PostgreSQL (503 when it cannot be stored: nothing was accepted), then hands it to
   * BullMQ. A Redis that fails here costs nothing but time: the dispatcher hands the stored job over once
   * Redis answers. The same id again (a retry of one Idempotency-Key) re-attaches to the job stored
   * under it, and gives a failed one another run. The caller waits with `waitForResult` (or releases the
   * signal itself).
   */
  async submit(job: NewBulkJob): Promise<Submitted> {
    // Listening before the job can finish: its word cannot come before anyone waits for it.
    const signal = this.signals.expect(job.id);
    let submission: Submission;
    try {
      submission = await this.repository.submit(job);
    } catch {
      signal.release();
      throw new AppError('SERVICE_UNAVAILABLE', 'The bulk job could not be stored; retry later');
    }
    if (submission.kind === 'existing' && (submission.state === 'completed' || submission.state === 'failed'))
      return { jobId: job.id, signal, running: false };
    // Bounded: a Redis that hangs (frozen, failing over) must not hold the request. Should the add still land
    // later, the dispatcher's add of the same job id is a no-op and the job's row lets its entries be written once.
    const added: IngestJob | undefined = await settleWithin(
      this.queue.add(job.entity, ingestJobData(job), {
        jobId: job.id,
        priority: ingestJobPriority(submission.lane, submission.turn),
      }),
      REDIS_WRITE_MS,
    );
    if (!added) await this.repository.notDispatched(job.id).catch(() => undefined);
    else if (submission.kind === 'retried' && (await settleWithin(added.getState(), REDIS_READ_MS)) === 'failed')
      await settleWithin(added.retry('failed'), REDIS_READ_MS);
    return { jobId: job.id, signal, running: true };
  }

  /** Does not wait: the caller answers 202 and the client asks for the job later. */
  leave(submitted: Submitted): JobOutcome {
    submitted.signal.release();
    return { state: 'pending' };
  }

  /**
   * Waits for the job, at most `timeoutMs` (less when the gateway starts draining): its row is read once
   * after each signal, the last time when the wait runs out (that read bounded by ANSWER_MS).
   */
  async waitForResult(submitted: Submitted, timeoutMs: number): Promise<JobOutcome> {
    const { jobId, signal } = submitted;
    const deadline = Date.now() + timeoutMs;
    const done = () => Date.now() >= deadline || this.draining.signal.aborted;
    try {
      // A job that had finished before is answered by its row at once.
      let waiting = submitted.running;
      for (;;) {
        if (waiting && !done()) await signal.next(deadline - Date.now(), this.draining.signal);
        waiting = true;
        // A PostgreSQL that does not answer holds no call past its deadline: the job stays pending.
        const bound = Math.max(deadline - Date.now(), 0) + ANSWER_MS;
        const outcome = (await settleWithin(this.outcome(jobId), bound)) ?? { state: 'pending' };
        if (outcome.state !== 'pending' || done()) return outcome;
      }
    } finally {
      signal.release();
    }
  }

  /**
   * The wait ran out and the caller is to be answered 202: the job is marked to tell its end with
   * `bulk.completed`. A job that ended meanwhile is answered by its outcome instead (it would tell no one).
   * Should PostgreSQL not answer within ANSWER_MS, or the job's row stay locked past ANSWER_LOCK_WAIT_MS,
   * the 202 stands (the job is stored and runs) and the job is marked after the answer (LateAcceptedMarks).
   */
  async answerAccepted(jobId: string): Promise<JobOutcome> {
    const answered = await settleWithin(this.markOrRead(jobId), ANSWER_MS);
    if (answered) return answered;
    // Not known in time whether the job was marked, or ended untold: it is marked (or told) after the 202.
    this.lateMarks.add(jobId);
    return { state: 'pending' };
  }

  private async markOrRead(jobId: string): Promise<JobOutcome> {
    try {
      const marked = await unitOfWork(this.db, (work) => this.repository.markAnsweredAccepted(jobId, work), {
        lockTimeoutMs: ANSWER_LOCK_WAIT_MS,
      });
      if (marked) return { state: 'pending' };
    } catch {
      this.lateMarks.add(jobId);
      return { state: 'pending' };
    }
    // The job ended: its outcome is the answer, unless the read failed (then the 202 goes, told later).
    const outcome = await this.outcome(jobId);
    if (outcome.state === 'pending') this.lateMarks.add(jobId);
    return outcome;
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
        const inRedis = await settleWithin(this.queue.getJobState(jobId), REDIS_READ_MS);
        return { ...base, state: inRedis === 'active' ? 'active' : 'queued' };
      }
    }
  }

  private async outcome(jobId: string): Promise<JobOutcome> {
    try {
      const job = await this.repository.status(jobId);
      if (job?.state === 'completed')
        return { state: 'completed', result: { status: job.resultStatus!, json: job.result! } };
      if (job?.state === 'failed') return { state: 'failed' };
      return { state: 'pending' };
    } catch {
      return { state: 'pending' };
    }
  }
}
