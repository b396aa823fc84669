import { queuePrefix } from '@wms/platform';
import { createIngestQueue, type IngestQueue } from '@wms/ingest';
import {
  createApiKey,
  createTenantWithWarehouse,
  createTestContext,
  defaultTenantId,
  waitFor,
  type TestContext,
  type TestGateway,
} from '@wms/testing';

const BASE = '/api/v1/integration/v1';
const FLOOD = 200;

interface Written {
  tenantId: string;
  lane: 'sync' | 'async';
}

/**
 * Bulk jobs of two tenants in the order the worker wrote them. The worker runs one job at a time, so the
 * order they were written is the order they were taken; it starts once every job is queued, so the order
 * is the queue's alone.
 */
describe('bulk jobs of several tenants take turns', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let queue: IngestQueue;

  beforeAll(async () => {
    ctx = await createTestContext('ingest-turns');
    gateway = await ctx.startGateway();
    queue = createIngestQueue({ connection: ctx.runtime.redis, prefix: queuePrefix(ctx.config) });
  }, 120_000);
  afterAll(async () => {
    await queue.close();
    await ctx.close();
  });

  function bulk(key: string, sku: string, respondAsync: boolean): Promise<Response> {
    return fetch(`${gateway.url}${BASE}/items/bulk`, {
      method: 'POST',
      headers: {
        'x-api-key': key,
        'content-type': 'application/json',
        ...(respondAsync ? { prefer: 'respond-async' } : {}),
      },
      body: JSON.stringify({ items: [{ sku, name: `Item ${sku}`, baseUomCode: 'EA' }] }),
    });
  }

  async function queuedIds(): Promise<string[]> {
    const [rows] = (await ctx.runtime.db.sequelize.query('SELECT id FROM bulk_jobs')) as [
      Array<{ id: string }>,
      unknown,
    ];
    return rows.map((row) => row.id);
  }

  it("when tenant A has queued 200 async jobs, tenant B's synchronous call and its next async job are written before all but one of A's", async () => {
    const keyA = (await createApiKey(ctx, { tenantId: await defaultTenantId(ctx) })).rawKey;
    const b = await createTenantWithWarehouse(ctx);
    const keyB = (await createApiKey(ctx, { tenantId: b.tenant.id })).rawKey;
    for (let index = 0; index < FLOOD; index += 1) expect((await bulk(keyA, `A-${index}`, true)).status).toBe(202);
    // The synchronous call waits for its job: it is answered once the worker below has written it.
    const syncCall = bulk(keyB, 'B-SYNC', false);
    expect((await bulk(keyB, 'B-ASYNC', true)).status).toBe(202);
    await waitFor(
      async () => {
        const ids = await queuedIds();
        const states = await Promise.all(ids.map((id) => queue.getJobState(id)));
        return ids.length === FLOOD + 2 && states.every((state) => state !== 'unknown');
      },
      30_000,
      'every job stored and in the ingest queue',
    );

    await ctx.startIngestWorker({ INGEST_CONCURRENCY: '1' });
    expect((await syncCall).status).toBe(200);
    await waitFor(
      async () => {
        const [rows] = (await ctx.runtime.db.sequelize.query(
          `SELECT count(*)::int AS n FROM bulk_jobs WHERE state = 'completed'`,
        )) as [Array<{ n: number }>, unknown];
        return rows[0]!.n === FLOOD + 2;
      },
      120_000,
      'every job completed',
    );

    const [written] = (await ctx.runtime.db.sequelize.query(
      'SELECT tenant_id AS "tenantId", lane FROM bulk_jobs ORDER BY finished_at, created_at',
    )) as [Written[], unknown];
    const order = written.map((job) => `${job.tenantId === b.tenant.id ? 'B' : 'A'}-${job.lane}`);
    // The synchronous lane goes first: B's call is the first job taken. B's async job's turn is its tenant's
    // first, the same as A's oldest queued job, which came first: so exactly one of A's jobs is written
    // before it, and A's other 199 after it.
    expect(order.indexOf('B-sync')).toBe(0);
    expect(order.indexOf('B-async')).toBe(2);
    expect(order.filter((job) => job === 'A-async')).toHaveLength(FLOOD);
  }, 200_000);
});
