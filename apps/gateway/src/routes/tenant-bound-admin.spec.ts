import {
  createApiKey,
  createTenantWithWarehouse,
  createTestContext,
  createUser,
  loginAs,
  request,
  TEST_ADMIN,
  type JsonNode,
  type TestContext,
  type TestGateway,
} from '@wms/testing';

/** A tenant-bound user, admin included, sees and changes only its tenant. */
describe('a tenant-bound admin', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let crossToken: string;
  let boundToken: string;
  let own: string;
  let other: string;
  let theirs: { userId: string; keyId: string; subscriptionId: string };
  let mine: { keyId: string; subscriptionId: string };

  const call = <T = JsonNode>(method: string, path: string, token: string, body?: unknown) =>
    request<T>(gateway.url, method, path, { token, body });

  async function subscription(token: string, tenantId?: string): Promise<string> {
    const created = await call<{ id: string }>('POST', '/api/v1/webhooks', token, {
      url: 'http://127.0.0.1:9/hook',
      events: ['*'],
      ...(tenantId ? { tenantId } : {}),
    });
    if (created.status !== 201) throw new Error(`subscription not created: ${created.status}`);
    return created.body.id;
  }

  beforeAll(async () => {
    ctx = await createTestContext('tenant-bound-admin', { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
    gateway = await ctx.startGateway();
    crossToken = await loginAs(gateway.url, TEST_ADMIN.email, TEST_ADMIN.password);
    [own, other] = (await Promise.all([createTenantWithWarehouse(ctx), createTenantWithWarehouse(ctx)])).map(
      ({ tenant }) => tenant.id,
    ) as [string, string];
    const admin = await createUser(ctx, { role: 'admin', tenantId: own });
    boundToken = await loginAs(gateway.url, admin.user.email, admin.password);
    const stranger = await createUser(ctx, { tenantId: other });
    theirs = {
      userId: stranger.user.id,
      keyId: (await createApiKey(ctx, { tenantId: other })).id,
      subscriptionId: await subscription(crossToken, other),
    };
    mine = { keyId: (await createApiKey(ctx, { tenantId: own })).id, subscriptionId: await subscription(boundToken) };
    await call('PATCH', `/api/v1/users/${stranger.user.id}`, crossToken, { firstName: 'Audited' });
  });
  afterAll(() => ctx.close());

  it('lists only its own tenant, while a cross-tenant admin lists every tenant', async () => {
    const bound = await call<Array<{ id: string }>>('GET', '/api/v1/tenants', boundToken);
    const cross = await call<Array<{ id: string }>>('GET', '/api/v1/tenants', crossToken);

    expect(bound.status).toBe(200);
    expect(bound.body.map((tenant) => tenant.id)).toEqual([own]);
    expect(cross.body.map((tenant) => tenant.id)).toEqual(expect.arrayContaining([own, other]));
  });

  it('cannot create a tenant (403); a cross-tenant admin can (201)', async () => {
    const bound = await call('POST', '/api/v1/tenants', boundToken, { code: 'BOUNDNEW', name: 'Bound new' });
    const cross = await call('POST', '/api/v1/tenants', crossToken, { code: 'CROSSNEW', name: 'Cross new' });

    expect(bound.status).toBe(403);
    expect(bound.body.error).toBe('Forbidden');
    expect(await ctx.services.tenants.findByCode('BOUNDNEW')).toBeNull();
    expect(cross.status).toBe(201);
  });

  it.each([
    ['users', '/api/v1/users'],
    ['API keys', '/api/v1/api-keys'],
    ['subscriptions', '/api/v1/webhooks'],
    ['audit entries', '/api/v1/audit-logs'],
  ])('sees only its own tenant in the %s list', async (_what, path) => {
    const response = await call<Array<{ tenantId: string | null }>>('GET', path, boundToken);

    expect(response.status).toBe(200);
    expect(response.body.length).toBeGreaterThan(0);
    expect(response.body.every((entry) => entry.tenantId === own)).toBe(true);
  });

  it.each([
    ['users', '/api/v1/users'],
    ['API keys', '/api/v1/api-keys'],
    ['subscriptions', '/api/v1/webhooks'],
    ['audit entries', '/api/v1/audit-logs'],
  ])('naming another tenant in the %s list answers 403 TENANT_MISMATCH', async (_what, path) => {
    const response = await call('GET', `${path}?tenantId=${other}`, boundToken);

    expect(response.status).toBe(403);
  });

  it("gets 404 for another tenant's user, key and subscription, in reads and in changes", async () => {
    const answers = await Promise.all([
      call('GET', `/api/v1/users/${theirs.userId}`, boundToken),
      call('PATCH', `/api/v1/users/${theirs.userId}`, boundToken, { firstName: 'Changed' }),
      call('GET', `/api/v1/api-keys/${theirs.keyId}`, boundToken),
      call('POST', `/api/v1/api-keys/${theirs.keyId}/revoke`, boundToken),
      call('GET', `/api/v1/webhooks/${theirs.subscriptionId}`, boundToken),
      call('DELETE', `/api/v1/webhooks/${theirs.subscriptionId}`, boundToken),
    ]);

    expect(answers.map((answer) => answer.status)).toEqual([404, 404, 404, 404, 404, 404]);
    expect((await ctx.services.apiKeys.get(theirs.keyId, { userId: null, tenantId: null })).active).toBe(true);
  });

  it('reads its own key and subscription, which were bound to its tenant', async () => {
    const key = await call<{ tenantId: string }>('GET', `/api/v1/api-keys/${mine.keyId}`, boundToken);
    const hook = await call<{ tenantId: string }>('GET', `/api/v1/webhooks/${mine.subscriptionId}`, boundToken);

    expect([key.status, key.body.tenantId]).toEqual([200, own]);
    expect([hook.status, hook.body.tenantId]).toEqual([200, own]);
  });

  it('cannot open the queue console, by bearer token or by session (403); a cross-tenant admin can', async () => {
    const page = await fetch(`${gateway.url}/admin/queues/`, {
      headers: { authorization: `Bearer ${boundToken}` },
      redirect: 'manual',
    });
    const session = await call('POST', '/api/v1/auth/queue-console-session', boundToken);
    const cross = await call('POST', '/api/v1/auth/queue-console-session', crossToken);

    expect(page.status).toBe(403);
    expect(session.status).toBe(403);
    expect(cross.status).toBe(200);
  });
});
