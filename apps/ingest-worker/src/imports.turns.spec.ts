import {
  createApiKey,
  createTenantWithWarehouse,
  createTestContext,
  defaultTenantId,
  startAppProcess,
  waitFor,
  type AppProcess,
  type TestContext,
  type TestGateway,
} from '@wms/testing';

const BASE = '/api/v1/integration/v1';
const CHUNK_ROWS = 100;
const CHUNKS = 8;

function itemsFile(prefix: string): string {
  return Array.from({ length: CHUNK_ROWS * CHUNKS }, (_unused, index) =>
    JSON.stringify({ sku: `${prefix}-${index}`, name: `Item ${index}`, baseUomCode: 'EA' }),
  ).join('\n');
}

describe('imports of several tenants share the workers', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let worker: AppProcess | undefined;

  beforeAll(async () => {
    ctx = await createTestContext('imports-turns', {
      IMPORT_CHUNK_ROWS: String(CHUNK_ROWS),
      IMPORT_CONCURRENCY: '1',
      IMPORT_MAX_CONCURRENT_PER_KEY: '5',
    });
    gateway = await ctx.startGateway();
  }, 120_000);
  afterAll(async () => {
    await worker?.kill();
    await ctx.close();
  });

  async function upload(key: string, prefix: string): Promise<string> {
    const response = await fetch(`${gateway.url}${BASE}/imports?entity=items`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/x-ndjson' },
      body: itemsFile(prefix),
    });
    expect(response.status).toBe(202);
    return ((await response.json()) as { jobId: string }).jobId;
  }

  it("when one tenant runs three files and another one, the other's file takes every other turn and each of the three gets its share", async () => {
    const busyKey = (await createApiKey(ctx, { tenantId: await defaultTenantId(ctx) })).rawKey;
    const other = await createTenantWithWarehouse(ctx);
    const otherKey = (await createApiKey(ctx, { tenantId: other.tenant.id })).rawKey;
    const busy = [await upload(busyKey, 'A1'), await upload(busyKey, 'A2'), await upload(busyKey, 'A3')];
    const lone = await upload(otherKey, 'B');

    worker = await startAppProcess('ingest-worker', ctx.env);
    await waitFor(
      async () => {
        const [rows] = await ctx.runtime.db.sequelize.query(
          `SELECT count(*)::int AS n FROM imports WHERE state = 'completed'`,
        );
        return (rows as Array<{ n: number }>)[0]!.n;
      },
      (completed) => completed === 4,
      120_000,
      'the four imports to complete',
    );

    const [chunks] = (await ctx.runtime.db.sequelize.query(
      'SELECT import_id AS "importId" FROM import_chunks ORDER BY finished_at, import_id, chunk',
    )) as [Array<{ importId: string }>, unknown];
    const order = chunks.map((chunk) => chunk.importId);
    expect(order).toHaveLength(4 * CHUNKS);
    // Turn by tenant: the lone file's last chunk comes about halfway (16 of 32), not near the end as it
    // would if each file took a turn of its own (about 29 of 32). One turn of slack for the queue's start.
    const loneLast = order.lastIndexOf(lone);
    expect(loneLast).toBeLessThan(2 * CHUNKS + 2);
    // The busy tenant's turns went round its three files, so each had written chunks by then.
    for (const file of busy)
      expect(order.slice(0, loneLast + 1).filter((id) => id === file).length).toBeGreaterThanOrEqual(2);
  }, 200_000);
});
