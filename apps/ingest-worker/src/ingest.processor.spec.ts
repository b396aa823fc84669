import { randomUUID } from 'node:crypto';
import {
  BulkJobsRepository,
  createIngestQueue,
  ingestJobData,
  queuePrefix,
  type IngestQueue,
  type NewBulkJob,
} from '@wms/shared';
import { createApiKey, createTestContext, defaultTenantId, waitFor, type TestContext } from '@wms/testing';

const item = (sku: string) => ({ sku, name: `Item ${sku}`, baseUomCode: 'EA' });

/**
 * The ingest worker as the gateway feeds it: a stored job handed to BullMQ with its entries, so the worker
 * writes them without reading the row first. What Redis keeps of a job afterwards is bounded: a completed
 * job leaves it, a failed one stays for inspection without its entries (its row keeps them).
 */
describe('ingest worker, jobs handed over with their entries', () => {
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

  /** Stores the job and hands it over with its entries, as the gateway does for a new job. */
  async function handOver(entries: unknown[]): Promise<NewBulkJob> {
    const job: NewBulkJob = { id: randomUUID(), entity: 'items', tenantId, apiKeyId, requestId: randomUUID(), entries };
    await repository.submit(job);
    await queue.add(job.entity, ingestJobData(job, entries), { jobId: job.id });
    return job;
  }

  const finished = (jobId: string) =>
    waitFor(
      () => repository.status(jobId),
      (status) => status?.state === 'completed' || status?.state === 'failed',
      10_000,
      'the job finished',
    );

  it('when a job comes with its entries, they are written, its row holds the result and Redis keeps nothing of it', async () => {
    const job = await handOver([item('HANDED-1'), item('HANDED-2')]);

    const status = await finished(job.id);

    expect(status?.state).toBe('completed');
    expect(JSON.parse(status!.result!)).toMatchObject({ status: 'success', total: 2, created: 2 });
    expect(await queue.getJob(job.id)).toBeUndefined();
  });

  it('when a job can never run (more entries than its handler takes), its row says failed and the failed job in Redis keeps no entries', async () => {
    const job = await handOver(Array.from({ length: 501 }, (_, n) => item(`TOO-MANY-${n}`)));

    const status = await finished(job.id);

    expect(status?.state).toBe('failed');
    const failed = await waitFor(
      () => queue.getJob(job.id),
      (found) => found?.failedReason !== undefined && found.data.entries === undefined,
      5_000,
      'the failed job trimmed',
    );
    expect(failed?.data).toEqual({ tenantId, apiKeyId, requestId: job.requestId });
    const [rows] = (await ctx.runtime.db.sequelize.query(
      "SELECT count(*)::int AS n FROM items WHERE sku LIKE 'TOO-MANY-%'",
    )) as [Array<{ n: number }>, unknown];
    expect(rows[0]!.n).toBe(0);
  });
});
