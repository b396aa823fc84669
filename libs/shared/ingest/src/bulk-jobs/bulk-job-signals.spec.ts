import { randomUUID } from 'node:crypto';
import { createLogger } from '@wms/platform';
import { BulkJobSignals, BULK_JOB_FINISHED_CHANNEL } from './bulk-job-signals.js';
import { BulkJobsRepository, type NewBulkJob } from './bulk-jobs.repository.js';
import { createApiKey, createTestContext, defaultTenantId, waitFor, type TestContext } from '@wms/testing';

/** No signal comes in this long unless something wakes the wait; jest's own timeout is far shorter. */
const NEVER_MS = 600_000;

describe('bulk job signals from PostgreSQL', () => {
  let ctx: TestContext;
  let repository: BulkJobsRepository;
  let signals: BulkJobSignals;
  let tenantId: string;
  let apiKeyId: string;

  beforeAll(async () => {
    ctx = await createTestContext('bulk-job-signals');
    repository = new BulkJobsRepository(ctx.runtime.db);
    tenantId = await defaultTenantId(ctx);
    apiKeyId = (await createApiKey(ctx, { tenantId })).id;
    signals = new BulkJobSignals(ctx.config, createLogger({ level: 'silent', name: 'test-signals' }));
    signals.start();
    await waitFor(listeners, (count) => count === 1, 10_000, 'the signals to listen');
  });
  afterAll(async () => {
    await signals.close();
    await ctx.close();
  });

  async function listeners(): Promise<number> {
    const [rows] = (await ctx.runtime.db.sequelize.query(
      `SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND query = $1`,
      { bind: [`LISTEN ${BULK_JOB_FINISHED_CHANNEL}`] },
    )) as [Array<{ n: number }>, unknown];
    return rows[0]!.n;
  }

  async function storedJob(): Promise<string> {
    const job: NewBulkJob = {
      id: randomUUID(),
      entity: 'items',
      tenantId,
      apiKeyId,
      requestId: randomUUID(),
      entries: [{ sku: 'SIGNAL-1', name: 'Signal', baseUomCode: 'EA' }],
    };
    await repository.submit(job);
    return job.id;
  }

  it('when a job completes, the call waiting for it is woken by the commit, and a call waiting for another job is not', async () => {
    const jobId = await storedJob();
    const otherId = await storedJob();
    const signal = signals.expect(jobId);
    const other = signals.expect(otherId);
    let otherWoken = false;
    const otherWait = other.next(NEVER_MS).then(() => (otherWoken = true));

    await repository.complete(jobId, { status: 'success', json: '{"status":"success"}' });
    await signal.next(NEVER_MS);

    expect(otherWoken).toBe(false);
    await repository.fail(otherId, 'gave up');
    await otherWait;
    signal.release();
    other.release();
  });

  it('when the job finished before the wait began, the word is kept and the wait ends', async () => {
    const jobId = await storedJob();
    const signal = signals.expect(jobId);

    await repository.complete(jobId, { status: 'success', json: '{"status":"success"}' });
    await signal.next(NEVER_MS);

    signal.release();
  });

  it('when the listening connection is lost, waiting calls are woken once it listens again, and later jobs are heard', async () => {
    const signal = signals.expect(await storedJob());
    const woken = signal.next(NEVER_MS);

    await ctx.runtime.db.sequelize.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query = $1`,
      { bind: [`LISTEN ${BULK_JOB_FINISHED_CHANNEL}`] },
    );

    // Whatever finished while nobody listened cannot be heard: every wait is woken to read its row.
    await woken;
    signal.release();
    await waitFor(listeners, (count) => count === 1, 10_000, 'the signals to listen again');
    const laterId = await storedJob();
    const later = signals.expect(laterId);
    await repository.complete(laterId, { status: 'success', json: '{"status":"success"}' });
    await later.next(NEVER_MS);
    later.release();
  });
});
