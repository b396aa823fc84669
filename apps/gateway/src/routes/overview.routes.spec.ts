import { queuePrefix } from '@wms/platform';
import { createIngestQueue } from '@wms/ingest';
import {
  createApiKey,
  createTenantWithWarehouse,
  createUser,
  defaultTenantId,
  loginAs,
  request,
  TEST_ADMIN,
  type TestContext,
  type TestGateway,
  createTestContext,
} from '@wms/testing';

const HOUR = 3_600_000;

describe('GET /api/v1/overview', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let adminToken: string;
  let tenantA: string;
  let tenantB: string;
  let busyKeyId: string;
  let failingSubscriptionId: string;

  const log = (apiKeyId: string, statusCode: number, ageMs: number) => ({
    apiKeyId,
    endpoint: '/api/v1/integration/v1/events',
    method: 'GET',
    ip: '127.0.0.1',
    origin: null,
    statusCode,
    responseTimeMs: 5,
    createdAt: new Date(Date.now() - ageMs),
  });

  const subscription = async (tenantId: string, url: string, disabledReason: string | null = null) => {
    const [rows] = (await ctx.runtime.db.sequelize.query(
      `INSERT INTO webhook_subscriptions (tenant_id, url, events, secret_sealed, active, disabled_reason)
       VALUES (:tenantId, :url, '{*}', 'sealed', :active, :disabledReason) RETURNING id`,
      { replacements: { tenantId, url, active: disabledReason === null, disabledReason } },
    )) as [Array<{ id: string }>, unknown];
    return rows[0]!.id;
  };

  const delivery = async (subscriptionId: string, status: string, attempts: number, lastError: string | null) => {
    await ctx.runtime.db.sequelize.query(
      `WITH e AS (INSERT INTO events (event, data) VALUES ('webhook.test', '{}') RETURNING id)
       INSERT INTO webhook_deliveries (event_id, subscription_id, status, attempts, last_status_code, last_error)
       SELECT e.id, :subscriptionId, :status, :attempts, :code, :lastError FROM e`,
      { replacements: { subscriptionId, status, attempts, code: lastError ? 500 : 200, lastError } },
    );
  };

  beforeAll(async () => {
    ctx = await createTestContext('overview');
    gateway = await ctx.startGateway();
    adminToken = await loginAs(gateway.url, TEST_ADMIN.email, TEST_ADMIN.password);
    tenantA = await defaultTenantId(ctx);
    tenantB = (await createTenantWithWarehouse(ctx)).tenant.id;

    const busy = await createApiKey(ctx, { name: 'busy', tenantId: tenantA });
    const quiet = await createApiKey(ctx, { name: 'quiet', tenantId: tenantA });
    const other = await createApiKey(ctx, { name: 'other tenant', tenantId: tenantB });
    const revoked = await createApiKey(ctx, { name: 'revoked', tenantId: tenantA });
    await ctx.services.apiKeys.revoke(revoked.id, { userId: null, tenantId: null });
    busyKeyId = busy.id;
    await ctx.services.apiKeys.repository.insertRequestLogs([
      log(busy.id, 200, 1_000),
      log(busy.id, 200, 2 * HOUR),
      log(busy.id, 401, 3 * HOUR),
      log(busy.id, 200, 30 * HOUR), // older than 24 h: not counted
      log(quiet.id, 500, 5 * HOUR),
      log(other.id, 200, HOUR),
    ]);

    failingSubscriptionId = await subscription(tenantA, 'https://erp.example.test/hooks');
    await delivery(failingSubscriptionId, 'failed', 8, 'connect ECONNREFUSED');
    await delivery(failingSubscriptionId, 'pending', 2, 'HTTP 503');
    const healthy = await subscription(tenantA, 'https://shop.example.test/hooks');
    await delivery(healthy, 'succeeded', 1, null);
    await subscription(tenantB, 'https://gone.example.test/hooks', 'The subscriber answered 410 Gone');

    // A delayed job, so the ingest queue has a depth to show.
    const ingest = createIngestQueue({ connection: ctx.runtime.redis, prefix: queuePrefix(ctx.config) });
    await ingest.add('items', { tenantId: tenantA } as never, { delay: 3_600_000, jobId: 'overview-delayed' });
    await ingest.close();
  });
  afterAll(() => ctx.close());

  it('an admin sees traffic across every key, the busiest first, failing subscriptions and queue depth', async () => {
    const response = await request(gateway.url, 'GET', '/api/v1/overview', { token: adminToken });

    expect(response.status).toBe(200);
    const { traffic, webhooks, queues } = response.body;
    expect(traffic).toMatchObject({ requests24h: 5, errors24h: 2, errorRate: 0.4, activeKeys: 3 });
    expect(traffic.busiestKeys[0]).toEqual({
      id: busyKeyId,
      name: 'busy',
      keyPrefix: expect.any(String),
      requests24h: 3,
      errors24h: 1,
      rateLimited24h: 0,
      refused24h: 0,
    });
    expect(traffic.busiestKeys.map((key) => key.name)).toEqual(['busy', 'other tenant', 'quiet']);
    expect(webhooks.subscriptions).toBe(3);
    expect(webhooks.failingSubscriptions).toHaveLength(2);
    expect(webhooks.failingSubscriptions[0]).toMatchObject({
      id: failingSubscriptionId,
      url: 'https://erp.example.test/hooks',
      active: true,
      failed24h: 2,
      lastStatusCode: 500,
      lastFailureAt: expect.any(String),
    });
    expect(webhooks.failingSubscriptions[1]).toMatchObject({
      active: false,
      disabledReason: 'The subscriber answered 410 Gone',
      failed24h: 0,
    });
    expect(queues).toEqual([
      { name: 'ingest', available: true, waiting: 0, active: 0, delayed: 1, failed: 0 },
      { name: 'webhook-delivery', available: true, waiting: 0, active: 0, delayed: 0, failed: 0 },
    ]);
  });

  it('a tenant-bound manager sees its tenant only, and no queues (they hold every tenant’s work)', async () => {
    const { user, password } = await createUser(ctx, {
      role: 'manager',
      tenantId: tenantB,
      adminModules: ['api-keys', 'webhooks'],
    });
    const token = await loginAs(gateway.url, user.email, password);

    const response = await request(gateway.url, 'GET', '/api/v1/overview', { token });

    expect(response.status).toBe(200);
    expect(response.body.traffic).toMatchObject({ requests24h: 1, errors24h: 0, activeKeys: 1 });
    expect(response.body.webhooks.subscriptions).toBe(1);
    expect(response.body.webhooks.failingSubscriptions).toHaveLength(1);
    expect(response.body.queues).toBeNull();
  });

  it('a viewer with the webhooks module only sees no traffic and no queues', async () => {
    const { user, password } = await createUser(ctx, { role: 'viewer', adminModules: ['webhooks'] });
    const token = await loginAs(gateway.url, user.email, password);

    const response = await request(gateway.url, 'GET', '/api/v1/overview', { token });

    expect(response.body.traffic).toBeNull();
    expect(response.body.queues).toBeNull();
    expect(response.body.webhooks.failingSubscriptions).toHaveLength(2);
  });

  it('without a token it is a 401', async () => {
    const response = await request(gateway.url, 'GET', '/api/v1/overview');

    expect(response.status).toBe(401);
  });
});
