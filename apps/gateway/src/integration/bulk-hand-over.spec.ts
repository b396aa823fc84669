import { createIngestQueue, queuePrefix, type IngestQueue } from '@wms/shared';
import {
  createApiKey,
  createTestContext,
  defaultTenantId,
  request,
  type AcceptedJobAnswer,
  type TestContext,
  type TestGateway,
} from '@wms/testing';
import { CARRY_ENTRIES_BELOW_WAITING } from './ingest-jobs.js';

const BASE = '/api/v1/integration/v1';
/** Longer than the gateway's reading interval of the queue's backlog. */
const BACKLOG_READ_WAIT_MS = 1_500;

const item = (sku: string) => ({ sku, name: `Item ${sku}`, baseUomCode: 'EA' });
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * What the gateway hands to BullMQ for a new bulk job: its entries while the queue keeps up, so the worker
 * need not read them back from PostgreSQL; only its ids once jobs pile up (no worker running here), so a
 * backlog does not fill Redis with entries the job's row already holds.
 */
describe('bulk jobs handed to the ingest queue', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let queue: IngestQueue;
  let key: string;
  let tenantId: string;
  let apiKeyId: string;

  beforeAll(async () => {
    ctx = await createTestContext('bulk-hand-over');
    gateway = await ctx.startGateway();
    queue = createIngestQueue({ connection: ctx.runtime.redis, prefix: queuePrefix(ctx.config) });
    tenantId = await defaultTenantId(ctx);
    ({ rawKey: key, id: apiKeyId } = await createApiKey(ctx, { tenantId }));
  });
  afterAll(async () => {
    await queue.obliterate({ force: true });
    await queue.close();
    await ctx.close();
  });

  const submit = async (skus: string[]) => {
    const response = await request<AcceptedJobAnswer>(gateway.url, 'POST', `${BASE}/items/bulk`, {
      body: { items: skus.map(item) },
      headers: { 'x-api-key': key, prefer: 'respond-async' },
    });
    expect(response.status).toBe(202);
    return (await queue.getJob(response.body.jobId))!;
  };

  it('when the queue keeps up, a new job is handed over with its entries', async () => {
    await pause(BACKLOG_READ_WAIT_MS);

    const job = await submit(['CARRY-1', 'CARRY-2']);

    expect(job.data.entries).toEqual([item('CARRY-1'), item('CARRY-2')]);
  });

  it('when jobs pile up in the queue, a new job is handed over with its ids alone and its row keeps the entries', async () => {
    await queue.addBulk(
      Array.from({ length: CARRY_ENTRIES_BELOW_WAITING }, (_, n) => ({
        name: 'items' as const,
        data: { tenantId, apiKeyId, requestId: `backlog-${n}` },
        opts: { jobId: `backlog-${n}` },
      })),
    );
    await pause(BACKLOG_READ_WAIT_MS);

    const job = await submit(['PILED-1']);

    expect(job.data).toEqual({ tenantId, apiKeyId, requestId: expect.any(String) });
    const [rows] = (await ctx.runtime.db.sequelize.query('SELECT entries FROM bulk_jobs WHERE id = $1', {
      bind: [job.id],
    })) as [Array<{ entries: string }>, unknown];
    expect(JSON.parse(rows[0]!.entries)).toEqual([item('PILED-1')]);
  });
});
