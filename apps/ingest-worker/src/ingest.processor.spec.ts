import { randomUUID } from 'node:crypto';
import { queuePrefix } from '@wms/platform';
import { BulkJobsRepository, createIngestQueue, ingestJobData, type IngestQueue, type NewBulkJob } from '@wms/ingest';
import { createApiKey, createTestContext, defaultTenantId, waitFor, type TestContext } from '@wms/testing';

const item = (sku: string) => ({ sku, name: `Item ${sku}`, baseUomCode: 'EA' });

/**
 * The ingest worker as the gateway feeds it: a job stored in PostgreSQL and handed to BullMQ by its ids.
 * What Redis keeps of a job afterwards: a completed job leaves it (its row is the record), a job that can
 * never run fails at once, recorded on its row, and stays in Redis for inspection.
 */
describe('ingest worker, stored jobs', () => {
  let ctx: TestContext;
  let repository: BulkJobsRepository;
  let queue: IngestQueue;
  let tenantId: string;
  let apiKeyId: string;

  beforeAll(async () => {
    ctx = await createTestContext('ingest-processor');
    repository = new BulkJobsRepository(ctx.runtime.db);
    queue = createIngestQueue({ connection: ctx.runtime.redis, prefix: queuePrefix(ctx.config) });
    tenantId = await defaultTenantId(ctx);
    apiKeyId = (await createApiKey(ctx, { tenantId })).id;
    await ctx.startIngestWorker();
  });
  afterAll(async () => {
    await queue.close();
    await ctx.close();
  });

  /** Stores the job and hands it over, as the gateway does. */
  async function handOver(entries: unknown[]): Promise<NewBulkJob> {
    const job: NewBulkJob = { id: randomUUID(), entity: 'items', tenantId, apiKeyId, requestId: randomUUID(), entries };
    await repository.submit(job);
    await queue.add(job.entity, ingestJobData(job), { jobId: job.id });
    return job;
  }

  const finished = (jobId: string) =>
    waitFor(
      () => repository.status(jobId),
      (status) => status?.state === 'completed' || status?.state === 'failed',
      10_000,
      'the job finished',
    );

  async function itemsLike(prefix: string): Promise<number> {
    const [rows] = (await ctx.runtime.db.sequelize.query('SELECT count(*)::int AS n FROM items WHERE sku LIKE $1', {
      bind: [`${prefix}%`],
    })) as [Array<{ n: number }>, unknown];
    return rows[0]!.n;
  }

  it('when a job runs, its entries are written, its row holds the result and Redis keeps nothing of it', async () => {
    const job = await handOver([item('HANDED-1'), item('HANDED-2')]);

    const status = await finished(job.id);

    expect(status?.state).toBe('completed');
    expect(JSON.parse(status!.result!)).toMatchObject({ status: 'success', total: 2, created: 2 });
    expect(await itemsLike('HANDED-')).toBe(2);
    expect(await queue.getJob(job.id)).toBeUndefined();
  });

  it('when a job can never run (more entries than its handler takes), it fails at once: its row says failed, nothing is written', async () => {
    const job = await handOver(Array.from({ length: 501 }, (_, n) => item(`TOO-MANY-${n}`)));

    const status = await finished(job.id);

    expect(status?.state).toBe('failed');
    const failed = await waitFor(
      () => queue.getJob(job.id),
      (found) => found?.failedReason !== undefined,
      5_000,
      'the failed job in Redis',
    );
    // Not retried: a job no run can fix fails on its first attempt.
    expect(failed?.attemptsMade).toBe(1);
    expect(failed?.data).toEqual({ tenantId, apiKeyId, requestId: job.requestId });
    expect(await itemsLike('TOO-MANY-')).toBe(0);
  });
});
