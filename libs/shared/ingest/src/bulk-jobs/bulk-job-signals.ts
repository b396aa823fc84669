import pg from 'pg';
import { boundedConnection, type DatabaseTarget, type Logger } from '@wms/platform';

/** The channel a trigger on bulk_jobs notifies, with the job id, when a job completes or fails. */
export const BULK_JOB_FINISHED_CHANNEL = 'bulk_job_finished';

/** While no connection listens, a waiting call looks at its row this often. */
const POLL_WITHOUT_LISTENER_MS = 100;
/** Between attempts to listen again after the listening connection was lost. */
const RELISTEN_MS = 1_000;

/**
 * A waiting call's ear for one job: `next` resolves when the job was said finished (since the last
 * `next`), when the listening connection came back (what was said meanwhile was not heard), after the
 * time given, or when `abort` fires; whichever is first. Either way the caller reads the row to know.
 */
export interface JobSignal {
  next(ms: number, abort?: AbortSignal): Promise<void>;
  release(): void;
}

interface Waiter {
  heard: boolean;
  wake?: () => void;
}

/**
 * Tells bulk calls waiting in this process that their job finished, from PostgreSQL itself: one
 * connection LISTENs on `bulk_job_finished`, which PostgreSQL delivers at the commit that finished the
 * job. Register a job before it can finish (before it is queued), then read its row after each signal.
 * When the connection is lost, waiting calls fall back to reading their rows every 100 ms until it is
 * back, and every waiter is woken once it is (a signal sent meanwhile was lost).
 */
export class BulkJobSignals {
  private readonly waiters = new Map<string, Set<Waiter>>();
  private client: pg.Client | undefined;
  private listening = false;
  private closed = false;
  private retry: NodeJS.Timeout | undefined;
  private lastErrorLog = 0;

  constructor(
    private readonly database: DatabaseTarget,
    private readonly logger: Logger,
  ) {}

  start(): void {
    void this.listen();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    this.listening = false;
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
    this.wakeAll();
  }

  expect(jobId: string): JobSignal {
    const waiter: Waiter = { heard: false };
    let waiters = this.waiters.get(jobId);
    if (!waiters) this.waiters.set(jobId, (waiters = new Set()));
    waiters.add(waiter);
    return {
      next: (ms, abort) => this.next(waiter, ms, abort),
      release: () => {
        waiters.delete(waiter);
        if (!waiters.size && this.waiters.get(jobId) === waiters) this.waiters.delete(jobId);
      },
    };
  }

  private next(waiter: Waiter, ms: number, abort?: AbortSignal): Promise<void> {
    if (waiter.heard || abort?.aborted || this.closed) {
      waiter.heard = false;
      return Promise.resolve();
    }
    const wait = this.listening ? ms : Math.min(ms, POLL_WITHOUT_LISTENER_MS);
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        abort?.removeEventListener('abort', done);
        waiter.wake = undefined;
        waiter.heard = false;
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, wait));
      abort?.addEventListener('abort', done, { once: true });
      waiter.wake = done;
    });
  }

  private hear(jobId: string): void {
    const waiters = this.waiters.get(jobId);
    if (!waiters) return;
    for (const waiter of waiters) {
      waiter.heard = true;
      waiter.wake?.();
    }
  }

  private wakeAll(): void {
    for (const jobId of this.waiters.keys()) this.hear(jobId);
  }

  private async listen(): Promise<void> {
    if (this.closed) return;
    // A connection of its own: LISTEN belongs to a session, and a pooled connection goes back to the pool.
    const client = new pg.Client(boundedConnection(this.database.databaseUrl, this.database, 'session'));
    const lost = (error?: unknown) => {
      if (this.client !== client) return;
      this.client = undefined;
      this.listening = false;
      if (error) this.logThrottled(error);
      void client.end().catch(() => undefined);
      this.scheduleListen();
    };
    client.on('error', lost);
    client.on('end', () => lost());
    client.on('notification', (message) => {
      if (message.payload) this.hear(message.payload);
    });
    this.client = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${BULK_JOB_FINISHED_CHANNEL}`);
      if (this.client !== client || this.closed) return;
      this.listening = true;
      // Whatever finished while nobody listened was not heard: every waiting call reads its row once.
      this.wakeAll();
    } catch (error) {
      lost(error);
    }
  }

  private scheduleListen(): void {
    if (this.closed || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      void this.listen();
    }, RELISTEN_MS);
    this.retry.unref();
  }

  private logThrottled(error: unknown): void {
    if (Date.now() - this.lastErrorLog < 10_000) return;
    this.lastErrorLog = Date.now();
    this.logger.warn({ err: error }, 'bulk job signals lost their PostgreSQL connection; waiting calls poll');
  }
}
