import { backoffDelay, isBlockedAddress, signWebhook, verifyWebhookSignature, webhookSigningKey } from '@wms/webhooks';
import {
  TEST_ADMIN,
  createSubscription,
  createTenantWithWarehouse,
  createTestContext,
  createUser,
  loginAs,
  request,
  type JsonNode,
  type TestContext,
  type TestGateway,
} from '@wms/testing';

/** A subscription as its creation answers it: the signing secret is shown this once. */
interface CreatedSubscription {
  id: string;
  secret: string;
}

describe('webhook subscriptions API', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let adminToken: string;

  beforeAll(async () => {
    ctx = await createTestContext('webhooks-routes');
    gateway = await ctx.startGateway();
    adminToken = await loginAs(gateway.url, TEST_ADMIN.email, TEST_ADMIN.password);
  });
  afterAll(() => ctx.close());

  const create = <T = JsonNode>(body: unknown, token = adminToken) =>
    request<T>(gateway.url, 'POST', '/api/v1/webhooks', { token, body });

  it('signs the Standard Webhooks reference vector exactly', () => {
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const body = '{"test": 2432232314}';

    const signature = signWebhook(secret, 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, body);

    expect(signature).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
    // The worker signs with the secret's kept key: the same signature.
    expect(signWebhook(webhookSigningKey(secret), 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, body)).toBe(signature);
    expect(() => webhookSigningKey('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw')).toThrow(/whsec_/);
    const atSigning = { now: 1614265330 };
    expect(
      verifyWebhookSignature(
        secret,
        'msg_p5jXN8AQM9LWM0D4loKWxJek',
        1614265330,
        body,
        `v1,bogus ${signature}`,
        atSigning,
      ),
    ).toBe(true);
    expect(verifyWebhookSignature(secret, 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265331, body, signature, atSigning)).toBe(
      false,
    );
  });

  it('grows the retry delay as base·2^(n-1) with jitter, at least Retry-After and at most 6 hours', () => {
    expect(backoffDelay(1, 1000, undefined, () => 0.5)).toBe(1000);
    expect(backoffDelay(4, 1000, undefined, () => 0.5)).toBe(8000);
    expect(backoffDelay(3, 1000, undefined, () => 0)).toBe(3200);
    expect(backoffDelay(3, 1000, undefined, () => 1)).toBe(4800);
    expect(backoffDelay(1, 1000, 60_000, () => 0.5)).toBe(60_000);
    expect(backoffDelay(30, 5000, undefined, () => 1)).toBe(6 * 3_600_000);
  });

  it('when a subscription is created, it answers 201 with a whsec_ secret that is never shown again', async () => {
    const response = await create<CreatedSubscription>({
      url: 'https://93.184.215.14/hooks',
      events: ['order.shipped', '*'],
      description: 'ERP',
    });

    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      id: expect.any(String),
      url: 'https://93.184.215.14/hooks',
      events: ['order.shipped', '*'],
      tenantId: null,
      active: true,
    });
    expect(response.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(response.body.secret.slice(6), 'base64')).toHaveLength(32);
    const detail = await request(gateway.url, 'GET', `/api/v1/webhooks/${response.body.id}`, { token: adminToken });
    const list = await request(gateway.url, 'GET', '/api/v1/webhooks', { token: adminToken });
    expect(detail.status).toBe(200);
    expect(detail.body.secret).toBeUndefined();
    expect(JSON.stringify(list.body)).not.toContain(response.body.secret);
    const [stored] = (await ctx.runtime.db.sequelize.query(
      'SELECT secret_sealed FROM webhook_subscriptions WHERE id = :id',
      {
        replacements: { id: response.body.id },
      },
    )) as [Array<{ secret_sealed: string }>, unknown];
    expect(stored[0]!.secret_sealed).not.toContain(response.body.secret.slice(6));
  });

  it.each([
    ['http://127.0.0.1/hook'],
    ['http://10.0.0.1/hook'],
    ['http://169.254.169.254/latest/meta-data'],
    ['http://[::1]/hook'],
    ['http://0x7f000001/hook'],
    ['http://2130706433/hook'],
    ['http://127.1/hook'],
    ['http://0177.0.0.1/hook'],
    ['http://100.64.0.1/hook'],
    ['http://[fd00:ec2::254]/hook'],
    ['http://[::ffff:127.0.0.1]/hook'],
    ['http://0.0.0.0/hook'],
    ['http://localhost:8080/hook'],
  ])('when the URL %s points to a private or reserved address, registration is refused with 400', async (url) => {
    const response = await create({ url, events: ['*'] });

    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({
      statusCode: 400,
      details: [{ path: 'url', message: expect.stringContaining('private') }],
    });
  });

  it('when the URL is not http(s), carries credentials, or events are unknown, registration is refused naming each problem', async () => {
    const ftp = await create({ url: 'ftp://93.184.215.14/x', events: ['*'] });
    const credentials = await create({ url: 'https://user:pw@93.184.215.14/x', events: ['*'] });
    const badEvents = await create({ url: 'https://93.184.215.14/x', events: ['order.exploded'], extra: true });

    expect(ftp.body.details).toEqual([{ path: 'url', message: 'url must use http or https' }]);
    expect(credentials.body.details).toEqual([{ path: 'url', message: 'url must not contain credentials' }]);
    expect(badEvents.status).toBe(400);
    expect(badEvents.body.details.map((detail) => detail.path).sort()).toEqual(['events.0', 'extra']);
  });

  it('when tenantId is not a UUID, listing and registration answer 400 naming it, as do unknown list filters', async () => {
    const listed = await request(gateway.url, 'GET', '/api/v1/webhooks?tenantId=not-a-tenant', { token: adminToken });
    const filtered = await request(gateway.url, 'GET', '/api/v1/webhooks?colour=blue', { token: adminToken });
    const registered = await create({ url: 'https://93.184.215.14/x', events: ['*'], tenantId: 'not-a-tenant' });

    expect(listed.status).toBe(400);
    expect(listed.body.message).toBe('Invalid query');
    expect(listed.body.details).toEqual([{ path: 'tenantId', message: expect.stringContaining('tenantId') }]);
    expect(filtered.status).toBe(400);
    expect(filtered.body.details.map((detail) => detail.path)).toEqual(['colour']);
    expect(registered.status).toBe(400);
    expect(registered.body.details).toEqual([{ path: 'tenantId', message: expect.stringContaining('tenantId') }]);
  });

  it('when NODE_ENV is production, a plain http URL is refused', async () => {
    const production = await ctx.startGateway({ NODE_ENV: 'production', METRICS_TOKEN: 'metrics-token-of-production' });

    const response = await request(production.url, 'POST', '/api/v1/webhooks', {
      token: adminToken,
      body: { url: 'http://93.184.215.14/x', events: ['*'] },
    });

    expect(response.status).toBe(400);
    expect(response.body.details).toEqual([{ path: 'url', message: 'url must use https' }]);
  });

  it('checks every encoding of blocked addresses the same way', () => {
    expect(
      [
        '127.0.0.1',
        '10.1.2.3',
        '172.31.255.255',
        '192.168.0.1',
        '169.254.169.254',
        '100.127.0.1',
        '::1',
        '::',
        'fe80::1',
        'fc00::1',
      ].every(isBlockedAddress),
    ).toBe(true);
    expect(['93.184.215.14', '8.8.8.8', '2606:4700:4700::1111'].some(isBlockedAddress)).toBe(false);
  });

  it('when a tenant-bound user lists or opens subscriptions, it sees only its tenant and cannot name another', async () => {
    const { tenant: mine } = await createTenantWithWarehouse(ctx);
    const { tenant: theirs } = await createTenantWithWarehouse(ctx);
    const theirSubscription = await createSubscription(ctx, {
      url: 'https://93.184.215.14/theirs',
      tenantId: theirs.id,
    });
    await createSubscription(ctx, { url: 'https://93.184.215.14/global' });
    // order.shipped needs read on orders, the module that owns its data.
    const user = await createUser(ctx, {
      role: 'manager',
      tenantId: mine.id,
      adminModules: ['webhooks', 'orders'],
      adminModulesWrite: ['webhooks'],
    });
    const token = await loginAs(gateway.url, user.user.email, user.password);

    const created = await create({ url: 'https://93.184.215.14/mine', events: ['order.shipped'] }, token);
    const list = await request(gateway.url, 'GET', '/api/v1/webhooks', { token });
    const foreign = await request(gateway.url, 'GET', `/api/v1/webhooks/${theirSubscription.id}`, { token });
    const foreignDelete = await request(gateway.url, 'DELETE', `/api/v1/webhooks/${theirSubscription.id}`, { token });
    const namingOther = await create({ url: 'https://93.184.215.14/x', events: ['*'], tenantId: theirs.id }, token);

    expect(created.status).toBe(201);
    expect(created.body.tenantId).toBe(mine.id);
    expect(list.body.map((subscription) => subscription.id)).toEqual([created.body.id]);
    expect(foreign.status).toBe(404);
    expect(foreignDelete.status).toBe(404);
    expect(namingOther.status).toBe(403);
    expect(namingOther.body.code).toBe('TENANT_MISMATCH');
  });

  it('when a user lacks the webhooks module, it gets 403', async () => {
    const user = await createUser(ctx, { role: 'viewer', adminModules: ['warehouses'] });
    const token = await loginAs(gateway.url, user.user.email, user.password);

    const response = await request(gateway.url, 'GET', '/api/v1/webhooks', { token });

    expect(response.status).toBe(403);
    expect(response.body.code).toBe('FORBIDDEN');
  });

  it('when a subscription is edited, listed with its deliveries and deleted, each answer has its documented shape', async () => {
    const created = await create<CreatedSubscription>({ url: 'https://93.184.215.14/edit', events: ['order.shipped'] });
    const id = created.body.id;

    const patched = await request(gateway.url, 'PATCH', `/api/v1/webhooks/${id}`, {
      token: adminToken,
      body: { events: ['*'], active: false, description: 'paused' },
    });
    const badPatch = await request(gateway.url, 'PATCH', `/api/v1/webhooks/${id}`, {
      token: adminToken,
      body: { url: 'http://10.0.0.1/' },
    });
    const test = await request(gateway.url, 'POST', `/api/v1/webhooks/${id}/test`, { token: adminToken });
    await request(gateway.url, 'PATCH', `/api/v1/webhooks/${id}`, { token: adminToken, body: { active: true } });
    const testAgain = await request(gateway.url, 'POST', `/api/v1/webhooks/${id}/test`, { token: adminToken });
    const deliveries = await request(gateway.url, 'GET', `/api/v1/webhooks/${id}/deliveries`, { token: adminToken });
    const redeliverPending = await request(
      gateway.url,
      'POST',
      `/api/v1/webhooks/${id}/deliveries/${testAgain.body.id}/redeliver`,
      { token: adminToken },
    );
    const removed = await request(gateway.url, 'DELETE', `/api/v1/webhooks/${id}`, { token: adminToken });
    const afterDelete = await request(gateway.url, 'GET', `/api/v1/webhooks/${id}`, { token: adminToken });

    expect(patched.body).toMatchObject({ events: ['*'], active: false, description: 'paused' });
    expect(badPatch.status).toBe(400);
    expect(test.status).toBe(409);
    expect(testAgain.status).toBe(202);
    expect(deliveries.body).toEqual([
      {
        id: testAgain.body.id,
        eventId: expect.any(String),
        event: 'webhook.test',
        status: 'pending',
        attempts: 0,
        lastStatusCode: null,
        lastError: null,
        nextAttemptAt: expect.any(String),
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      },
    ]);
    expect(redeliverPending.status).toBe(409);
    expect(removed.status).toBe(204);
    expect(afterDelete.status).toBe(404);
  });
});
