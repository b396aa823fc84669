import { createWebhookDeliveryQueue, type WebhookDeliveryQueue } from '@wms/webhooks';
import {
  appendEvents,
  createApiKey,
  createTenantWithWarehouse,
  createTestContext,
  relayOver,
  request,
  sampleEvents,
  type TestContext,
  type TestGateway,
} from '@wms/testing';

describe('GET /api/v1/integration/v1/events (reconciliation feed)', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let queue: WebhookDeliveryQueue;

  beforeAll(async () => {
    ctx = await createTestContext('event-feed');
    gateway = await ctx.startGateway();
    queue = createWebhookDeliveryQueue(ctx.runtime.redis, ctx.config.redisKeyPrefix, 3);
  });
  afterAll(async () => {
    await queue.close();
    await ctx.close();
  });

  /** The relay gives committed events their feed position (as the webhook worker does continuously). */
  const relayOnce = () => relayOver(ctx, queue).fanOut();

  const feed = (rawKey: string, query = '') =>
    request(gateway.url, 'GET', `/api/v1/integration/v1/events${query}`, { headers: { 'x-api-key': rawKey } });

  it("when a tenant's key reads the feed page by page, it gets that tenant's events oldest first with the webhook body fields, and the cursor stays put at the end", async () => {
    const { tenant } = await createTenantWithWarehouse(ctx);
    const { tenant: other } = await createTenantWithWarehouse(ctx);
    const appended = await appendEvents(ctx, sampleEvents(tenant.id));
    await appendEvents(ctx, sampleEvents(other.id));
    await relayOnce();
    const { rawKey } = await createApiKey(ctx, { scopes: ['read'], tenantId: tenant.id });

    const first = await feed(rawKey, '?limit=6');
    const second = await feed(rawKey, `?limit=6&after=${first.body.nextCursor}`);
    const end = await feed(rawKey, `?after=${second.body.nextCursor}`);

    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ status: 'success', requestId: expect.any(String) });
    const ids = [...first.body.data, ...second.body.data].map((event) => event.id);
    expect(ids).toEqual(appended.map((event) => event.id));
    expect(first.body.data[0]).toEqual({
      id: appended[0]!.id,
      event: 'asn.received',
      timestamp: expect.stringMatching(/Z$/),
      // The first event of its ASN.
      sequence: 1,
      data: { ...sampleEvents(tenant.id)[0]!.data, tenantId: tenant.id },
    });
    expect(end.body.data).toEqual([]);
    expect(end.body.nextCursor).toBe(second.body.nextCursor);
  });

  it('when a cross-tenant key reads without tenantId, it gets 400 TENANT_REQUIRED; with one, that tenant', async () => {
    const { tenant } = await createTenantWithWarehouse(ctx);
    await appendEvents(ctx, sampleEvents(tenant.id).slice(0, 2));
    await relayOnce();
    const { rawKey } = await createApiKey(ctx, { scopes: ['read'] });

    const without = await feed(rawKey);
    const withTenant = await feed(rawKey, `?tenantId=${tenant.id}`);

    expect(without.status).toBe(400);
    expect(without.body).toMatchObject({ status: 'error', code: 'TENANT_REQUIRED', message: 'tenantId is required.' });
    expect(withTenant.body.data.map((event) => event.event)).toEqual(['asn.received', 'asn.completed']);
  });

  it('when the cursor or limit is malformed, it answers 400 VALIDATION_FAILED naming the field', async () => {
    const { tenant } = await createTenantWithWarehouse(ctx);
    const { rawKey } = await createApiKey(ctx, { scopes: ['read'], tenantId: tenant.id });

    const badCursor = await feed(rawKey, '?after=abc');
    const badLimit = await feed(rawKey, '?limit=501');

    expect(badCursor.status).toBe(400);
    expect(badCursor.body.details).toEqual([expect.objectContaining({ path: 'after' })]);
    expect(badLimit.body.details).toEqual([expect.objectContaining({ path: 'limit' })]);
  });

  it("when a key without read scope asks, it gets the guard's 401", async () => {
    const { tenant } = await createTenantWithWarehouse(ctx);
    const { rawKey } = await createApiKey(ctx, { scopes: ['write'], tenantId: tenant.id });

    const response = await feed(rawKey);

    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ statusCode: 401, message: 'API key missing required scope(s)' });
  });
});
