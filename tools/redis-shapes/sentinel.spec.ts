import { setTimeout as delay } from 'node:timers/promises';
import {
  createApiKey,
  createTenantWithWarehouse,
  createTestContext,
  appendEvents,
  createSubscription,
  request,
  sampleEvents,
  startRedisSentinelSet,
  startTestWebhookWorker,
  startWebhookReceiver,
  waitFor,
  type PrivateSentinelSet,
  type TestContext,
  type TestGateway,
  type WebhookReceiver,
} from '@wms/testing';
import {
  BASE,
  LONG_KEY_CACHE,
  bulkJobsComplete,
  countItems,
  item,
  rateLimitExactAcrossGateways,
  revocationReachesBoth,
  webhooksDelivered,
} from './scenarios.js';

/** Between one bulk call (and event) of the failover traffic and the next. */
const TRAFFIC_PAUSE_MS = 25;

// The whole service on a private primary + replica watched by three sentinels (REDIS_SENTINELS).
describe('behind Redis Sentinel', () => {
  let set: PrivateSentinelSet;
  let ctx: TestContext;
  let receiver: WebhookReceiver;
  let gatewayA: TestGateway;
  let gatewayB: TestGateway;

  beforeAll(async () => {
    set = await startRedisSentinelSet();
    ctx = await createTestContext('redis-sentinel', {
      REDIS_SENTINELS: set.sentinelList,
      REDIS_SENTINEL_NAME: set.name,
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    });
    receiver = await startWebhookReceiver();
    gatewayA = await ctx.startGateway({}, LONG_KEY_CACHE);
    gatewayB = await ctx.startGateway({}, LONG_KEY_CACHE);
    await ctx.startIngestWorker();
  }, 90_000);
  afterAll(async () => {
    await receiver?.close();
    await ctx?.close();
    await set?.stop();
  }, 90_000);

  it('bulk jobs complete through the ingest queue', () => bulkJobsComplete(ctx, gatewayA));

  it('webhooks are delivered through the delivery queue', () => webhooksDelivered(ctx, receiver, '/sentinel'));

  it('the rate limit stays exact across two gateways', () => rateLimitExactAcrossGateways(ctx, gatewayA, gatewayB));

  it('a revocation on one gateway reaches the other over pub/sub', () =>
    revocationReachesBoth(ctx, gatewayA, gatewayB));

  // Its waits allow up to a minute each, and the test their sum: on a loaded machine the failover and the
  // catch-up outlast jest's 30 s, and a stage that overruns names itself.
  it('when the sentinels fail over during bulk traffic and event flow, nothing accepted is lost or written twice, and the gateways and the ingest worker carry on', async () => {
    const { tenant } = await createTenantWithWarehouse(ctx);
    const { rawKey } = await createApiKey(ctx, { tenantId: tenant.id });
    // The events this test appends, not `*`: its bulk calls (answered 202) also append bulk.completed.
    const subscription = await createSubscription(ctx, {
      url: receiver.urlFor('/failover'),
      events: [sampleEvents(tenant.id)[0]!.event],
      tenantId: tenant.id,
    });
    const worker = startTestWebhookWorker(ctx);
    const before = await set.primaryPort();
    const accepted: string[] = [];
    let calls = 0;
    let failedOver = false;
    const appended: string[] = [];

    // Bulk calls and events keep coming before, during and after the failover, paced so that a slow failover
    // on a loaded machine does not pile up an unbounded backlog for the worker and the receiver.
    const traffic = (async () => {
      while (!failedOver || calls < 20) {
        if (calls > 0) await delay(TRAFFIC_PAUSE_MS);
        const batch = calls++;
        const items = Array.from({ length: 20 }, (_, index) => item(`FO-${batch}-${index}`));
        const answer = await request(gatewayA.url, 'POST', `${BASE}/items/bulk`, {
          body: { items },
          headers: { 'x-api-key': rawKey, prefer: 'respond-async' },
        });
        if (answer.status === 202) accepted.push(...items.map((entry) => entry.sku));
        const events = await appendEvents(ctx, sampleEvents(tenant.id).slice(0, 1));
        appended.push(...events.map((event) => event.id));
      }
    })();
    await waitFor(() => calls >= 5);
    await set.failover();
    failedOver = true;
    await traffic;

    await waitFor(async () => (await countItems(ctx, 'FO-')) >= accepted.length, 60_000, 'accepted items stored');
    // The worker that ran through the failover delivers every event by itself, also those whose jobs the
    // old primary took and lost when it became a replica (the relay finds and queues them again).
    await receiver.waitForRequests('/failover', appended.length, 60_000);
    await worker.close();

    expect(await set.primaryPort()).not.toBe(before);
    expect(accepted.length).toBeGreaterThan(0);
    const [rows] = (await ctx.runtime.db.sequelize.query(
      "SELECT sku, count(*)::int AS n FROM items WHERE sku LIKE 'FO-%' GROUP BY sku",
    )) as [{ sku: string; n: number }[], unknown];
    expect(rows.filter((row) => row.n > 1)).toEqual([]);
    expect(new Set(rows.map((row) => row.sku))).toEqual(new Set(accepted));
    const delivered = new Set(receiver.requestsTo('/failover').map((entry) => String(entry.headers['webhook-id'])));
    expect(appended.filter((id) => !delivered.has(id))).toEqual([]);
    // One delivery per event, none twice (counted in the table: the API's list is a page of 100).
    const [counts] = (await ctx.runtime.db.sequelize.query(
      `SELECT count(*)::int AS deliveries, count(DISTINCT event_id)::int AS events
         FROM webhook_deliveries WHERE subscription_id = $1`,
      { bind: [subscription.id] },
    )) as [{ deliveries: number; events: number }[], unknown];
    expect(counts[0]).toEqual({ deliveries: appended.length, events: appended.length });
    // Both gateways find the new primary by themselves, without a restart (reconnecting may take a moment).
    for (const gateway of [gatewayA, gatewayB]) {
      await waitFor(
        async () => (await request(gateway.url, 'GET', '/health/ready')).status === 200,
        30_000,
        'a gateway ready on the new primary',
      );
    }
  }, 240_000);

  it('when the primary stops answering, readiness says 503 until the sentinels have promoted the replica, then 200 again', async () => {
    const primaryPort = await set.primaryPort();
    const primary = [set.primary, set.replica].find((server) => server.port === primaryPort)!;
    const ready = async () => (await request(gatewayA.url, 'GET', '/health/ready')).status;
    await waitFor(async () => (await ready()) === 200, 30_000, 'readiness 200 before the primary stops');

    primary.freeze();
    try {
      await waitFor(async () => (await ready()) === 503, 10_000, 'readiness 503 while the primary is away');
      await waitFor(async () => (await set.primaryPort()) !== primaryPort, 30_000, 'the sentinels to promote');
      await waitFor(async () => (await ready()) === 200, 30_000, 'readiness 200 on the new primary');
    } finally {
      primary.thaw();
    }

    const { rawKey } = await createApiKey(ctx);
    const answer = await request(gatewayA.url, 'GET', `${BASE}/no-such-route`, { headers: { 'x-api-key': rawKey } });
    expect(answer.status).toBe(404);
  }, 120_000);
});
