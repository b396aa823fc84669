import {
  TEST_ADMIN,
  appendEvents,
  createApiKey,
  createSubscription,
  createTenantWithWarehouse,
  loginAs,
  request,
  sampleEvents,
  startTestWebhookWorker,
  waitFor,
  type TestContext,
  type TestGateway,
  type WebhookReceiver,
} from '@wms/testing';

// What every Redis shape must carry, run against the shape a spec file started: bulk jobs through the
// ingest queue, webhook deliveries through the delivery queue, one exact rate limit and revocation
// across two gateways.

export const BASE = '/api/v1/integration/v1';
/** A request the guard lets through reaches the integration API's 404 (no handler on this path). */
const GUARDED_PATH = `${BASE}/no-such-route`;

export const item = (sku: string) => ({ sku, name: `Item ${sku}`, baseUomCode: 'EA' });

export async function countItems(ctx: TestContext, skuPrefix: string): Promise<number> {
  const [rows] = (await ctx.runtime.db.sequelize.query('SELECT count(*)::int AS n FROM items WHERE sku LIKE $1', {
    bind: [`${skuPrefix}%`],
  })) as [{ n: number }[], unknown];
  return rows[0]!.n;
}

export async function bulkJobsComplete(ctx: TestContext, gateway: TestGateway): Promise<void> {
  const { tenant } = await createTenantWithWarehouse(ctx);
  const { rawKey } = await createApiKey(ctx, { tenantId: tenant.id });
  const items = Array.from({ length: 50 }, (_, index) => item(`SHAPE-${index}`));

  const answer = await request(gateway.url, 'POST', `${BASE}/items/bulk`, {
    body: { items },
    headers: { 'x-api-key': rawKey },
  });

  expect(answer.status).toBe(200);
  expect(answer.body).toMatchObject({ status: 'success', total: 50, created: 50, updated: 0, errors: [] });
}

export async function webhooksDelivered(ctx: TestContext, receiver: WebhookReceiver, path: string): Promise<void> {
  const worker = startTestWebhookWorker(ctx);
  const { tenant } = await createTenantWithWarehouse(ctx);
  const subscription = await createSubscription(ctx, { url: receiver.urlFor(path), tenantId: tenant.id });

  const appended = await appendEvents(ctx, sampleEvents(tenant.id));
  const received = await receiver.waitForRequests(path, appended.length);
  await worker.close();

  expect(new Set(received.map((entry) => entry.headers['webhook-id']))).toEqual(
    new Set(appended.map((event) => event.id)),
  );
  const deliveries = await ctx.services.webhooks.listDeliveries(subscription.id, { tenantId: null });
  await waitFor(async () =>
    (await ctx.services.webhooks.listDeliveries(subscription.id, { tenantId: null })).every(
      (delivery) => delivery.status === 'succeeded',
    ),
  );
  expect(deliveries).toHaveLength(appended.length);
}

export async function rateLimitExactAcrossGateways(
  ctx: TestContext,
  gatewayA: TestGateway,
  gatewayB: TestGateway,
): Promise<void> {
  const limit = 6;
  const { rawKey } = await createApiKey(ctx, { rateLimitPerMinute: limit });

  const answers = await Promise.all(
    Array.from({ length: 3 * limit }, (_, index) =>
      request((index % 2 ? gatewayA : gatewayB).url, 'GET', GUARDED_PATH, { headers: { 'x-api-key': rawKey } }),
    ),
  );

  const statuses = answers.map((answer) => answer.status);
  expect(statuses.filter((status) => status === 404)).toHaveLength(limit);
  expect(statuses.filter((status) => status === 429)).toHaveLength(2 * limit);
  expect(answers.every((answer) => answer.headers.get('x-ratelimit-limit') === String(limit))).toBe(true);
}

export async function revocationReachesBoth(
  ctx: TestContext,
  gatewayA: TestGateway,
  gatewayB: TestGateway,
): Promise<void> {
  const { id, rawKey } = await createApiKey(ctx);
  const call = (gateway: TestGateway) =>
    request(gateway.url, 'GET', GUARDED_PATH, { headers: { 'x-api-key': rawKey } });
  // Both gateways have the key cached before it is revoked.
  expect((await call(gatewayA)).status).toBe(404);
  expect((await call(gatewayB)).status).toBe(404);
  const token = await loginAs(gatewayA.url, TEST_ADMIN.email, TEST_ADMIN.password);

  const revoked = await request(gatewayA.url, 'POST', `/api/v1/api-keys/${id}/revoke`, { token });
  await waitFor(async () => (await call(gatewayB)).status === 401, 10_000, 'the other gateway to refuse the key');

  expect(revoked.status).toBe(200);
  expect((await call(gatewayA)).status).toBe(401);
}

/**
 * Gateways whose key cache outlives the test: only the invalidation message over Redis pub/sub can make
 * the other gateway forget a revoked key.
 */
export const LONG_KEY_CACHE = { apiKeys: { cacheTtlMs: 10 * 60_000 } };
