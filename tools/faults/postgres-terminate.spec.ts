import pg from 'pg';
import { QueryTypes } from 'sequelize';
import {
  TEST_ADMIN,
  createApiKey,
  createMasterData,
  createTestContext,
  defaultTenantId,
  request,
  waitFor,
  type TestContext,
  type TestGateway,
} from '@wms/testing';

const BASE = '/api/v1/integration/v1';

/**
 * An operator (or a failover, or an idle-session killer) terminates the gateway's PostgreSQL connections
 * with pg_terminate_backend while requests flow. Requests caught on a dying connection answer 503 (retry),
 * never an opaque 500; the pool replaces its connections by itself, so the gateway answers again without a
 * restart; a write answered 200 is stored exactly once.
 */
describe('PostgreSQL connections terminated under request load', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let admin: pg.Client;

  beforeAll(async () => {
    ctx = await createTestContext('fault-pg-terminate');
    gateway = await ctx.startGateway();
    admin = new pg.Client({ connectionString: ctx.config.databaseUrl });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await ctx?.close();
  });

  /** Terminates every other connection to this test's database (the gateway's pool among them); returns how many. */
  async function terminateAll(): Promise<number> {
    const { rows } = await admin.query<{ n: number }>(
      `SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity
       WHERE datname = current_database() AND pid <> pg_backend_pid()`,
    );
    return rows[0]!.n;
  }

  it('requests on terminated connections answer 503 or succeed, and the gateway recovers without a restart', async () => {
    const tenantId = await defaultTenantId(ctx);
    const { rawKey } = await createApiKey(ctx, { tenantId });
    await createMasterData(ctx, tenantId, { items: [{ sku: 'PG-0' }] });
    const statuses: number[] = [];
    const stored: string[] = [];
    let sequence = 0;
    let running = true;

    const client = async () => {
      while (running) {
        const sku = `PG-${++sequence}`;
        const [write, read, login] = await Promise.all([
          request(gateway.url, 'POST', `${BASE}/items`, {
            body: { sku, name: 'terminated', baseUomCode: 'EA' },
            headers: { 'x-api-key': rawKey },
          }),
          request(gateway.url, 'GET', `${BASE}/stock?sku=PG-0`, { headers: { 'x-api-key': rawKey } }),
          request(gateway.url, 'POST', '/api/v1/auth/login', { body: TEST_ADMIN }),
        ]);
        statuses.push(write.status, read.status, login.status);
        if (write.status === 200) stored.push(sku);
      }
    };
    const load = Promise.all([client(), client(), client()]);
    try {
      await waitFor(() => statuses.length >= 30, 30_000, 'load running');
      let terminated = 0;
      for (let round = 0; round < 3; round += 1) {
        const seen = statuses.length;
        terminated += await terminateAll();
        await waitFor(() => statuses.length >= seen + 30, 30_000, 'requests after the termination');
      }
      expect(terminated).toBeGreaterThan(0);
    } finally {
      running = false;
      await load;
    }

    expect(statuses.filter((status) => status !== 200 && status !== 503)).toEqual([]);
    // Recovered: a fresh round of each kind succeeds on new connections.
    const after = await Promise.all([
      request(gateway.url, 'GET', `${BASE}/stock?sku=PG-0`, { headers: { 'x-api-key': rawKey } }),
      request(gateway.url, 'POST', '/api/v1/auth/login', { body: TEST_ADMIN }),
      request(gateway.url, 'GET', '/health/ready'),
    ]);
    expect(after.map((response) => response.status)).toEqual([200, 200, 200]);
    // Every write answered 200 is stored, once.
    const rows = await ctx.runtime.db.sequelize.query<{ sku: string }>(
      `SELECT sku FROM items WHERE tenant_id = $1 AND sku LIKE 'PG-%' AND sku <> 'PG-0'`,
      { bind: [tenantId], type: QueryTypes.SELECT },
    );
    const skus = rows.map((row) => row.sku);
    expect(stored.filter((sku) => !skus.includes(sku))).toEqual([]);
    expect(new Set(skus).size).toBe(skus.length);
  }, 120_000);
});
