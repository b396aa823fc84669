import { QueryTypes } from 'sequelize';
import {
  createApiKey,
  createMasterData,
  createTenantWithWarehouse,
  createTestContext,
  createUser,
  loginAs,
  request,
  scrapeMetrics,
  startPostgresReplication,
  startTcpProxy,
  waitFor,
  type JsonNode,
  type PrivateReplication,
  type TcpProxy,
  type TestContext,
  type TestGateway,
} from '@wms/testing';

const BASE = '/api/v1/integration/v1';
// Long enough that the paused standby stays in rotation through each test: its reads are routed by the
// tenants' positions, not by its lag.
const MAX_LAG_SECONDS = 60;

// A gateway whose Redis is black-holed cannot store a write's position for the other gateways to see. Two
// gateways over a primary and a hot standby of this file's own; the first reaches Redis through a proxy
// the tests cut.
describe('a write whose position Redis did not take', () => {
  let servers: PrivateReplication;
  let ctx: TestContext;
  let redisProxy: TcpProxy;
  let cutOff: TestGateway;
  let other: TestGateway;
  let key: string;
  let manager: string;

  beforeAll(async () => {
    servers = await startPostgresReplication();
    ctx = await createTestContext('unstored-positions', {}, { databaseServerUrl: servers.primary.url('postgres') });
    const redis = new URL(ctx.config.redisUrl);
    redisProxy = await startTcpProxy({ host: redis.hostname, port: Number(redis.port || 6379) });
    const replicas = {
      DATABASE_READ_URLS: servers.standbyUrl(ctx.config.databaseUrl),
      READ_REPLICA_MAX_LAG_SECONDS: String(MAX_LAG_SECONDS),
    };
    cutOff = await ctx.startGateway({ ...replicas, REDIS_URL: redisProxy.urlFor(ctx.config.redisUrl) });
    other = await ctx.startGateway(replicas);
    const { tenant } = await createTenantWithWarehouse(ctx);
    await createMasterData(ctx, tenant.id, {
      items: [{ sku: 'ADJ' }],
      locations: [{ warehouseCode: 'WH1', code: 'A-01' }],
    });
    key = (await createApiKey(ctx, { tenantId: tenant.id })).rawKey;
    const user = await createUser(ctx, {
      role: 'manager',
      tenantId: tenant.id,
      adminModules: ['inventory'],
      adminModulesWrite: ['inventory'],
    });
    manager = await loginAs(other.url, user.user.email, user.password);
    for (const gateway of [cutOff, other]) {
      await waitFor(
        async () => (await scrapeMetrics(gateway.url)).value('wms_db_replica_in_rotation') === 1,
        20_000,
        'the replica in rotation',
      );
    }
    expect((await adjust(other, 10)).status).toBe(201);
  }, 120_000);
  afterEach(() => redisProxy.heal());
  afterAll(async () => {
    await ctx?.close();
    await redisProxy?.close();
    await servers?.stop();
  });

  const adjust = (gateway: TestGateway, qtyDelta: number) =>
    request(gateway.url, 'POST', '/api/v1/stock/adjustments', {
      token: manager,
      body: { warehouseCode: 'WH1', locationCode: 'A-01', sku: 'ADJ', qtyDelta, reason: 'counted again' },
    });
  const onHand = async (gateway: TestGateway) => {
    const answer = await request<{ data?: JsonNode }>(gateway.url, 'GET', `${BASE}/stock?sku=ADJ`, {
      headers: { 'x-api-key': key },
    });
    expect(answer.status).toBe(200);
    return Number(answer.body.data!.totalOnHand);
  };
  /** The tenant's stock as the primary has it. */
  const totalNow = async () => {
    const [row] = await ctx.runtime.db.sequelize.query<{ total: number }>(
      `SELECT coalesce(sum(s.qty_on_hand), 0)::float8 AS total FROM stock_rows s JOIN items i ON i.id = s.item_id
        WHERE i.sku = 'ADJ'`,
      { type: QueryTypes.SELECT },
    );
    return row!.total;
  };

  it("is answered once every replica has replayed it, so another gateway's next read sees it", async () => {
    // Arrange
    const before = await totalNow();
    redisProxy.cut();

    // Act
    const written = await adjust(cutOff, 5);
    const read = await onHand(other);

    // Assert
    expect(written.status).toBe(201);
    expect(read).toBe(before + 5);
  });

  it("when a replica has not replayed it, the tenant's reads on its gateway go to the primary, and on every gateway once Redis takes it", async () => {
    // Arrange: the standby stops replaying, so a read of it would miss the write.
    const before = await totalNow();
    await servers.standby.query('SELECT pg_wal_replay_pause()');
    try {
      redisProxy.cut();

      // Act
      const written = await adjust(cutOff, 1);
      const whileCut = await onHand(cutOff);
      redisProxy.heal();
      const healed = await onHand(cutOff);

      // Assert
      expect(written.status).toBe(201);
      expect(whileCut).toBe(before + 1);
      expect(healed).toBe(before + 1);
      await waitFor(
        () => onHand(other),
        (total) => total === before + 1,
        10_000,
        "the other gateway to read the primary once Redis has the tenant's position",
      );
    } finally {
      await servers.standby.query('SELECT pg_wal_replay_resume()');
    }
  });
});
