import { generateRawKey } from '@wms/api-keys';
import {
  TEST_ADMIN,
  appendEvents,
  createApiKey,
  createMasterData,
  createSubscription,
  defaultTenantId,
  loginAs,
  request,
  sampleEvents,
  startRedisServer,
  startTestWebhookWorker,
  startWebhookReceiver,
  waitFor,
  type HttpResponse,
  type PrivateRedis,
  type TestContext,
  type TestGateway,
  type WebhookReceiver,
  createTestContext,
} from '@wms/testing';

const BASE = '/api/v1/integration/v1';
/** Longest the test keeps Redis frozen: a request still waiting for Redis then completes only after the thaw. */
const FREEZE_LIMIT_MS = 15_000;

/**
 * Redis frozen with SIGSTOP (a hung primary, a stalled VM): its connections stay open and nothing answers.
 * API-key calls (every one a cache miss, with a rate limit), logins good and bad, single writes, bulk calls
 * that ask for an answer at once, and events keep coming. No request may wait for Redis: each must be answered while Redis is still frozen; readiness
 * says 503 meanwhile; after SIGCONT every event appended during the freeze is delivered.
 */
describe('Redis frozen with SIGSTOP', () => {
  let redis: PrivateRedis;
  let ctx: TestContext;
  let gateway: TestGateway;
  let receiver: WebhookReceiver;
  let adminToken: string;

  beforeAll(async () => {
    redis = await startRedisServer();
    ctx = await createTestContext('fault-redis-freeze', {
      REDIS_URL: redis.url,
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      WEBHOOK_BACKOFF_BASE_MS: '200',
    });
    receiver = await startWebhookReceiver();
    // No key cache: every API-key call looks its key up and asks the failed-lookup throttle.
    gateway = await ctx.startGateway({}, { apiKeys: { cacheTtlMs: 0 } });
    adminToken = await loginAs(gateway.url, TEST_ADMIN.email, TEST_ADMIN.password);
  }, 60_000);
  afterAll(async () => {
    redis?.thaw();
    await receiver?.close();
    await ctx?.close();
    await redis?.stop();
  });

  it('no request waits for a frozen Redis, readiness says 503, and every event is delivered after the thaw', async () => {
    const tenantId = await defaultTenantId(ctx);
    const { rawKey } = await createApiKey(ctx, { tenantId, rateLimitPerMinute: 100_000 });
    // Well formed, so it is looked up (and its failure counted in Redis), but no such key exists.
    const unknownKey = generateRawKey();
    await createMasterData(ctx, tenantId, { items: [{ sku: 'FROZEN-0' }] });
    // The events this test appends, not `*`: its bulk calls (answered 202) also append bulk.completed.
    await createSubscription(ctx, {
      url: receiver.urlFor('/frozen'),
      events: sampleEvents(tenantId)
        .slice(0, 2)
        .map((event) => event.event),
      tenantId,
    });
    const worker = startTestWebhookWorker(ctx);
    await ctx.startIngestWorker();
    const appended: string[] = [];
    const append = async () =>
      appended.push(...(await appendEvents(ctx, sampleEvents(tenantId).slice(0, 2))).map((event) => event.id));
    await append();
    await receiver.waitForRequests('/frozen', appended.length);

    let frozen = true;
    redis.freeze();
    const thawTimer = setTimeout(() => {
      frozen = false;
      redis.thaw();
    }, FREEZE_LIMIT_MS);
    const answered: { what: string; status: number; whileFrozen: boolean }[] = [];
    const call = async (what: string, send: () => Promise<HttpResponse>) => {
      const response = await send();
      answered.push({ what, status: response.status, whileFrozen: frozen });
      return response;
    };
    try {
      for (let round = 0; round < 6; round += 1) {
        await Promise.all([
          call('stock inquiry', () =>
            request(gateway.url, 'GET', `${BASE}/stock?sku=FROZEN-0`, { headers: { 'x-api-key': rawKey } }),
          ),
          call('single write', () =>
            request(gateway.url, 'POST', `${BASE}/items`, {
              body: { sku: `FROZEN-${round + 1}`, name: 'frozen', baseUomCode: 'EA' },
              headers: { 'x-api-key': rawKey },
            }),
          ),
          call('unknown key', () =>
            request(gateway.url, 'GET', `${BASE}/stock?sku=FROZEN-0`, {
              headers: { 'x-api-key': unknownKey },
            }),
          ),
          call('async bulk', () =>
            request(gateway.url, 'POST', `${BASE}/items/bulk`, {
              body: { items: [{ sku: `FROZEN-BULK-${round}`, name: 'frozen', baseUomCode: 'EA' }] },
              headers: { 'x-api-key': rawKey, prefer: 'respond-async' },
            }),
          ),
          call('queue console', () =>
            request(gateway.url, 'GET', '/admin/queues/api/queues?activeQueue=ingest&status=latest', {
              token: adminToken,
            }),
          ),
          call('login', () => request(gateway.url, 'POST', '/api/v1/auth/login', { body: TEST_ADMIN })),
          call('wrong password', () =>
            request(gateway.url, 'POST', '/api/v1/auth/login', { body: { ...TEST_ADMIN, password: 'wrong-password' } }),
          ),
          append(),
        ]);
      }
      const readiness = await call('readiness', () => request(gateway.url, 'GET', '/health/ready'));
      expect(readiness.status).toBe(503);
    } finally {
      clearTimeout(thawTimer);
      frozen = false;
      redis.thaw();
    }

    expect(answered.filter((answer) => !answer.whileFrozen)).toEqual([]);
    expect(
      answered.filter((answer) => answer.status >= 500 && !['readiness', 'queue console'].includes(answer.what)),
    ).toEqual([]);
    // The console's reads of the queues cannot be answered without Redis: 503, at once, never a hang.
    expect(
      new Set(answered.filter((answer) => answer.what === 'queue console').map((answer) => answer.status)),
    ).toEqual(new Set([503]));
    expect(new Set(answered.filter((answer) => answer.what === 'single write').map((answer) => answer.status))).toEqual(
      new Set([200]),
    );

    // A bulk job is accepted once its row is stored; BullMQ gets it when Redis answers again.
    expect(new Set(answered.filter((answer) => answer.what === 'async bulk').map((answer) => answer.status))).toEqual(
      new Set([202]),
    );
    await waitFor(
      async () => {
        const [rows] = (await ctx.runtime.db.sequelize.query(
          "SELECT count(*)::int AS n FROM items WHERE sku LIKE 'FROZEN-BULK-%'",
        )) as [{ n: number }[], unknown];
        return rows[0]!.n === 6;
      },
      60_000,
      'every bulk job accepted during the freeze written after the thaw',
    );

    // Nothing accepted is lost: every event appended during the freeze reaches the subscriber.
    await waitFor(
      () => {
        const delivered = new Set(receiver.requestsTo('/frozen').map((entry) => String(entry.headers['webhook-id'])));
        return appended.every((id) => delivered.has(id));
      },
      60_000,
      'every event delivered after the thaw',
    );
    await waitFor(
      async () => (await request(gateway.url, 'GET', '/health/ready')).status === 200,
      15_000,
      'ready again',
    );
    await worker.close();
  }, 120_000);
});
