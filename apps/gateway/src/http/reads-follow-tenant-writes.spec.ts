import {
  createApiKey,
  createMasterData,
  createSubscription,
  createTenantWithWarehouse,
  createTestContext,
  createUser,
  loginAs,
  request,
  scrapeMetrics,
  startPostgresReplication,
  startTestWebhookWorker,
  startWebhookReceiver,
  waitFor,
  type JsonNode,
  type PrivateReplication,
  type TestContext,
  type TestGateway,
  type WebhookReceiver,
} from '@wms/testing';

const BASE = '/api/v1/integration/v1';
const MAX_WAIT_MS = 50;
// Long enough that the paused standby stays in rotation through each test: its reads are routed by the
// tenants' positions, not by its lag.
const MAX_LAG_SECONDS = 60;

// What one caller of a tenant was told (an answer, a webhook), every other caller of the tenant reads,
// whichever gateway answers: a primary and a hot standby of this file's own, the standby's replay paused.
// Where a read went is read from the gateway's metrics (wms_db_reads_total by pool and reason).
describe('a tenant reads every write of its callers, from a read replica', () => {
  let servers: PrivateReplication;
  let ctx: TestContext;
  let gateway: TestGateway;
  let receiver: WebhookReceiver;
  let tenantId: string;
  let partnerKey: string;
  let otherKey: string;
  let warehouseUser: string;
  let bystanderKey: string;

  beforeAll(async () => {
    servers = await startPostgresReplication();
    ctx = await createTestContext(
      'tenant-reads',
      { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' },
      { databaseServerUrl: servers.primary.url('postgres') },
    );
    const readUrls = servers.standbyUrl(ctx.config.databaseUrl);
    gateway = await ctx.startGateway({
      DATABASE_READ_URLS: readUrls,
      READ_REPLICA_MAX_WAIT_MS: String(MAX_WAIT_MS),
      READ_REPLICA_MAX_LAG_SECONDS: String(MAX_LAG_SECONDS),
    });
    ({
      tenant: { id: tenantId },
    } = await createTenantWithWarehouse(ctx));
    await createMasterData(ctx, tenantId, {
      items: [{ sku: 'ADJ', name: 'Adjusted item' }],
      locations: [{ warehouseCode: 'WH1', code: 'A-01' }],
    });
    partnerKey = (await createApiKey(ctx, { tenantId, name: 'partner' })).rawKey;
    otherKey = (await createApiKey(ctx, { tenantId, name: 'another key' })).rawKey;
    const user = await createUser(ctx, {
      role: 'manager',
      tenantId,
      adminModules: ['inventory'],
      adminModulesWrite: ['inventory'],
    });
    warehouseUser = await loginAs(gateway.url, user.user.email, user.password);
    const { tenant: bystander } = await createTenantWithWarehouse(ctx);
    await createMasterData(ctx, bystander.id, { items: [{ sku: 'QUIET', name: 'Only read' }] });
    bystanderKey = (await createApiKey(ctx, { tenantId: bystander.id, name: 'bystander' })).rawKey;

    receiver = await startWebhookReceiver();
    await createSubscription(ctx, { url: receiver.urlFor('/partner'), events: ['stock.adjusted'], tenantId });
    startTestWebhookWorker(ctx, { readReplicaUrls: [readUrls] });
    await waitFor(async () => (await metric('wms_db_replica_in_rotation')) === 1, 20_000, 'replica in rotation');
  }, 120_000);
  afterAll(async () => {
    await ctx?.close();
    await receiver?.close();
    await servers?.stop();
  });

  const metric = async (name: string, labels: Record<string, string> = {}) =>
    (await scrapeMetrics(gateway.url)).value(name, labels);
  const reads = (pool: 'primary' | 'replica', reason: string) => metric('wms_db_reads_total', { pool, reason });
  const inquire = (key: string, sku: string) =>
    request<{ data?: JsonNode }>(gateway.url, 'GET', `${BASE}/stock?sku=${encodeURIComponent(sku)}`, {
      headers: { 'x-api-key': key },
    });
  const adjust = (qtyDelta: number) =>
    request(gateway.url, 'POST', '/api/v1/stock/adjustments', {
      token: warehouseUser,
      body: { warehouseCode: 'WH1', locationCode: 'A-01', sku: 'ADJ', qtyDelta, reason: 'counted again' },
    });

  /** Until the standby has replayed everything the primary has written so far; then its replay stops. */
  async function pauseReplayCaughtUp(): Promise<void> {
    const [{ lsn }] = await servers.primary.query<{ lsn: string }>('SELECT pg_current_wal_insert_lsn()::text AS lsn');
    await waitFor(
      async () => {
        const [row] = await servers.standby.query<{ done: boolean }>(
          `SELECT pg_last_wal_replay_lsn() >= '${lsn}'::pg_lsn AS done`,
        );
        return row!.done;
      },
      10_000,
      'the standby to replay the primary',
    );
    await servers.standby.query('SELECT pg_wal_replay_pause()');
  }
  const resumeReplay = () => servers.standby.query('SELECT pg_wal_replay_resume()');

  it("a warehouse user's adjustment the partner was told of by webhook is in the partner key's next read", async () => {
    expect((await adjust(10)).status).toBe(201);
    await receiver.waitForRequests('/partner', 1);
    await pauseReplayCaughtUp();
    try {
      const waitedOut = await reads('primary', 'waited_out');

      expect((await adjust(5)).status).toBe(201);
      const [, told] = await receiver.waitForRequests('/partner', 2);
      const answer = await inquire(partnerKey, 'ADJ');

      expect((JSON.parse(told!.body) as { data: { qtyOnHand: number } }).data.qtyOnHand).toBe(15);
      expect(answer.status).toBe(200);
      expect(answer.body.data!.totalOnHand).toBe(15);
      expect(await reads('primary', 'waited_out')).toBe(waitedOut + 1);
    } finally {
      await resumeReplay();
    }
  });

  it("an item one key of the tenant wrote is in another key's next read", async () => {
    await pauseReplayCaughtUp();
    try {
      const written = await request(gateway.url, 'POST', `${BASE}/items`, {
        body: { sku: 'NEW-1', name: 'written by another key', baseUomCode: 'EA' },
        headers: { 'x-api-key': otherKey },
      });
      const answer = await inquire(partnerKey, 'NEW-1');

      expect(written.status).toBe(200);
      expect(answer.status).toBe(200);
      expect(answer.body.data!.itemName).toBe('written by another key');
    } finally {
      await resumeReplay();
    }
  });

  it("another tenant's reads still go to the replica while this tenant writes", async () => {
    await pauseReplayCaughtUp();
    try {
      const fromReplica = await reads('replica', 'no_recent_write');

      expect((await adjust(1)).status).toBe(201);
      const answer = await inquire(bystanderKey, 'QUIET');

      expect(answer.status).toBe(200);
      expect(answer.body.data!.itemName).toBe('Only read');
      expect(await reads('replica', 'no_recent_write')).toBe(fromReplica + 1);
    } finally {
      await resumeReplay();
    }
  });
});
