import { replicaName } from '@wms/platform';
import {
  arrangeStockItem,
  createTestContext,
  scrapeMetrics,
  startPostgresReplication,
  startTcpProxy,
  waitFor,
  type PrivateReplication,
  type StockItem,
  type TcpProxy,
  type TestContext,
  type TestGateway,
} from '@wms/testing';

// Long enough that the paused standby stays in rotation through each test: its reads are routed by the
// tenants' positions, not by its lag.
const MAX_LAG_SECONDS = 60;

// Gateways over a primary and a hot standby of this file's own, one of them reaching Redis through a proxy
// the tests cut (it cannot store a write's position for the other gateways to see), another reaching the
// standby through a proxy that slows every chunk.
describe("a tenant's reads from a replica when a gateway's link fails or slows", () => {
  /** Each way, so a round trip to the replica takes twice this and more: above READ_REPLICA_MAX_WAIT_MS. */
  const SLOW_LINK_MS = 60;
  let servers: PrivateReplication;
  let ctx: TestContext;
  let redisProxy: TcpProxy;
  let replicaProxy: TcpProxy;
  let far: TestGateway;
  let cutOff: TestGateway;
  let other: TestGateway;
  let item: StockItem;
  /** The standby as each gateway names it: the gateways share this process' metrics, so a series is read by its label. */
  const replicaOf = new Map<TestGateway, string>();
  const inRotation = async (gateway: TestGateway) =>
    (await scrapeMetrics(gateway.url)).value('wms_db_replica_in_rotation', { replica: replicaOf.get(gateway)! }) === 1;

  beforeAll(async () => {
    servers = await startPostgresReplication();
    ctx = await createTestContext('unstored-positions', {}, { databaseServerUrl: servers.primary.url('postgres') });
    const redis = new URL(ctx.config.redisUrl);
    redisProxy = await startTcpProxy({ host: redis.hostname, port: Number(redis.port || 6379) });
    const replicas = {
      DATABASE_READ_URLS: servers.standbyUrl(ctx.config.databaseUrl),
      READ_REPLICA_MAX_LAG_SECONDS: String(MAX_LAG_SECONDS),
    };
    const standby = new URL(replicas.DATABASE_READ_URLS);
    replicaProxy = await startTcpProxy({ host: standby.hostname, port: Number(standby.port || 5432) });
    replicaProxy.delay(SLOW_LINK_MS);
    cutOff = await ctx.startGateway({ ...replicas, REDIS_URL: redisProxy.urlFor(ctx.config.redisUrl) });
    other = await ctx.startGateway(replicas);
    const slowReplica = replicaProxy.urlFor(replicas.DATABASE_READ_URLS);
    far = await ctx.startGateway({ ...replicas, DATABASE_READ_URLS: slowReplica });
    replicaOf.set(cutOff, replicaName(replicas.DATABASE_READ_URLS));
    replicaOf.set(other, replicaName(replicas.DATABASE_READ_URLS));
    replicaOf.set(far, replicaName(slowReplica));
    item = await arrangeStockItem(ctx, other.url, 'ADJ');
    for (const gateway of [cutOff, other, far])
      await waitFor(() => inRotation(gateway), 20_000, 'the replica in rotation');
    expect((await adjust(other, 10)).status).toBe(201);
  }, 60_000);
  afterEach(() => redisProxy.heal());
  afterAll(async () => {
    await ctx?.close();
    await redisProxy?.close();
    await replicaProxy?.close();
    await servers?.stop();
  });

  const adjust = (gateway: TestGateway, qtyDelta: number) => item.adjust(gateway.url, qtyDelta);
  const onHand = async (gateway: TestGateway) => {
    const answer = await item.inquire(gateway.url);
    expect(answer.status).toBe(200);
    return Number(answer.body.data!.totalOnHand);
  };
  const totalNow = () => item.onHand();
  const reads = async (gateway: TestGateway, pool: 'primary' | 'replica', reason: string) =>
    (await scrapeMetrics(gateway.url)).value('wms_db_reads_total', { pool, reason });

  it("when the link to the replica is slower than READ_REPLICA_MAX_WAIT_MS, a read after its tenant's write waits a few round trips for the replica instead of reading the primary", async () => {
    // Arrange: the slow link's replica in rotation (a busy machine may have let one check of it time out)
    await waitFor(() => inRotation(far), 20_000, 'the slow replica in rotation');
    const before = await totalNow();
    const caughtUp = await reads(far, 'replica', 'caught_up');
    const waitedOut = await reads(far, 'primary', 'waited_out');

    // Act
    const written = await adjust(other, 2);
    const read = await onHand(far);

    // Assert
    expect(written.status).toBe(201);
    expect(read).toBe(before + 2);
    expect(await reads(far, 'replica', 'caught_up')).toBe(caughtUp + 1);
    expect(await reads(far, 'primary', 'waited_out')).toBe(waitedOut);
  });

  it("a write whose position Redis did not take is answered once every replica has replayed it, so another gateway's next read sees it", async () => {
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

  it("when a replica has not replayed a write whose position Redis did not take, the tenant's reads on its gateway go to the primary, and on every gateway once Redis takes it", async () => {
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
