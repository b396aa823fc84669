import {
  TEST_ADMIN,
  createTenantWithWarehouse,
  createTestContext,
  loginAs,
  request,
  type TestContext,
  type TestGateway,
} from '@wms/testing';

interface Answer {
  id: string;
  message: string;
  code: string;
}

/** WEBHOOK_MAX_SUBSCRIPTIONS_PER_TENANT bounds how many subscriptions one event of a tenant fans out to. */
describe('the subscriptions a tenant may have', () => {
  const LIMIT = 3;
  let ctx: TestContext;
  let gateway: TestGateway;
  let token: string;

  beforeAll(async () => {
    ctx = await createTestContext('webhooks-limit', { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
    gateway = await ctx.startGateway({ WEBHOOK_MAX_SUBSCRIPTIONS_PER_TENANT: String(LIMIT) });
    token = await loginAs(gateway.url, TEST_ADMIN.email, TEST_ADMIN.password);
  });
  afterAll(() => ctx.close());
  // Each case starts with no subscription at all: a cross-tenant one counts toward every tenant.
  beforeEach(async () => {
    for (const subscription of await ctx.services.webhooks.list({ tenantId: null }))
      await ctx.services.webhooks.remove(subscription.id, { tenantId: null });
  });

  const subscribe = (tenantId: string | null) =>
    request<Answer>(gateway.url, 'POST', '/api/v1/webhooks', {
      token,
      body: { url: 'http://127.0.0.1:9/hook', events: ['*'], ...(tenantId ? { tenantId } : {}) },
    });
  const remove = (id: string) => request(gateway.url, 'DELETE', `/api/v1/webhooks/${id}`, { token });
  const countOf = async (tenantId: string) => (await ctx.services.webhooks.list({ tenantId }, tenantId)).length;

  it('when a tenant has the limit, the next create is a 409 naming the setting; another tenant still subscribes; a delete makes room', async () => {
    const full = (await createTenantWithWarehouse(ctx)).tenant.id;
    const other = (await createTenantWithWarehouse(ctx)).tenant.id;
    const created = [];
    for (let n = 0; n < LIMIT; n += 1) created.push(await subscribe(full));

    const refused = await subscribe(full);
    const elsewhere = await subscribe(other);
    await remove(created[0]!.body.id);
    const afterDelete = await subscribe(full);

    expect(created.map((answer) => answer.status)).toEqual([201, 201, 201]);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('SUBSCRIPTION_LIMIT');
    expect(refused.body.message).toContain('WEBHOOK_MAX_SUBSCRIPTIONS_PER_TENANT');
    expect([elsewhere.status, afterDelete.status]).toEqual([201, 201]);
    expect(await countOf(full)).toBe(LIMIT);
  });

  it('when many creates for one tenant arrive at once, exactly the limit is created and the rest are 409', async () => {
    const tenantId = (await createTenantWithWarehouse(ctx)).tenant.id;

    const answers = await Promise.all(Array.from({ length: 12 }, () => subscribe(tenantId)));

    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([...Array(LIMIT).fill(201), ...Array(12 - LIMIT).fill(409)]);
    expect(await countOf(tenantId)).toBe(LIMIT);
  });

  it("a cross-tenant subscription counts toward every tenant's limit, and is refused while any tenant is at the limit", async () => {
    const tenantId = (await createTenantWithWarehouse(ctx)).tenant.id;
    const crowded = (await createTenantWithWarehouse(ctx)).tenant.id;
    for (let n = 0; n < LIMIT; n += 1) expect((await subscribe(crowded)).status).toBe(201);

    const crossWhileCrowded = await subscribe(null);
    const crowdedIds = (await ctx.services.webhooks.list({ tenantId: crowded }, crowded)).map((sub) => sub.id);
    await remove(crowdedIds[0]!);
    const cross = await subscribe(null);
    const own = [await subscribe(tenantId), await subscribe(tenantId)];
    const third = await subscribe(tenantId);

    expect(crossWhileCrowded.status).toBe(409);
    expect(cross.status).toBe(201);
    expect(own.map((answer) => answer.status)).toEqual([201, 201]);
    expect(third.status).toBe(409);
  });
});
