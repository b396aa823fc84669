import {
  createApiKey,
  createTestContext,
  defaultTenantId,
  request,
  scrapeMetrics,
  type TestContext,
  type TestGateway,
} from '@wms/testing';

const BASE = '/api/v1/integration/v1';
const TOKEN = 'metrics-token-for-the-tests';

describe('gateway GET /metrics', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let key: string;

  beforeAll(async () => {
    ctx = await createTestContext('gateway-metrics', { METRICS_TOKEN: TOKEN });
    gateway = await ctx.startGateway();
    key = (await createApiKey(ctx, { tenantId: await defaultTenantId(ctx), rateLimitPerMinute: 3 })).rawKey;
  });
  afterAll(() => ctx.close());

  const scrape = () => scrapeMetrics(gateway.url, TOKEN);
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    request(gateway.url, 'POST', `${BASE}${path}`, { body, headers: { 'x-api-key': key, ...headers } });

  it('when METRICS_TOKEN is set, a scrape without it or with another token gets 401', async () => {
    expect((await scrapeMetrics(gateway.url)).status).toBe(401);
    expect((await scrapeMetrics(gateway.url, 'not-the-metrics-token')).status).toBe(401);
    const scraped = await scrape();
    expect(scraped.status).toBe(200);
    expect(scraped.families()).toContain('http_request_duration_seconds');
  });

  it('when no METRICS_TOKEN is set (development), /metrics is open', async () => {
    const open = await ctx.startGateway({ METRICS_TOKEN: '' });

    const scraped = await scrapeMetrics(open.url);

    expect(scraped.status).toBe(200);
    expect(scraped.families()).toContain('http_requests_in_flight');
  });

  it('exports the Node.js process metrics and the job counts of both queues', async () => {
    const families = (await scrape()).families();
    for (const name of [
      'process_cpu_user_seconds_total',
      'nodejs_eventloop_lag_seconds',
      'nodejs_heap_size_used_bytes',
    ])
      expect(families).toContain(name);
    const text = (await scrape()).text;
    expect(text).toMatch(/^bullmq_job_count\{queue="ingest", state="waiting"\} \d+$/m);
    expect(text).toMatch(/^bullmq_job_count\{queue="webhook-delivery", state="failed"\} \d+$/m);
    expect(text.match(/^# TYPE bullmq_job_count gauge$/gm)).toHaveLength(1);
  });

  it('after real traffic, request durations move by route template and status code, never by raw path', async () => {
    const route = `${BASE}/orders/:orderNo`;
    const before = await scrape();

    const missing = await request(gateway.url, 'GET', `${BASE}/orders/SO-NOPE-4711`, { headers: { 'x-api-key': key } });
    const again = await request(gateway.url, 'GET', `${BASE}/orders/SO-NOPE-4712/`, { headers: { 'x-api-key': key } });

    expect([missing.status, again.status]).toEqual([404, 404]);
    const after = await scrape();
    const labels = { method: 'GET', route, status_code: '404' };
    expect(after.value('http_request_duration_seconds_count', labels)).toBe(
      before.value('http_request_duration_seconds_count', labels) + 2,
    );
    expect(after.text).not.toContain('SO-NOPE');
    expect(after.text).toContain('http_requests_in_flight');
  });

  it('counts the API-key guard refusals by reason, and a request no route knows under its mount', async () => {
    const before = await scrape();

    await request(gateway.url, 'GET', `${BASE}/stock?sku=X`);
    await request(gateway.url, 'GET', `${BASE}/stock?sku=X`, { headers: { 'x-api-key': 'wms_live_not-a-real-key' } });
    for (let attempt = 0; attempt < 4; attempt++)
      await post('/items', { sku: `RL-${attempt}`, name: 'x', baseUomCode: 'EA' });
    await request(gateway.url, 'GET', '/nowhere/path-segment-never-a-label');

    const after = await scrape();
    const moved = (reason: string) =>
      after.value('wms_api_key_refusals_total', { reason }) - before.value('wms_api_key_refusals_total', { reason });
    expect(moved('missing')).toBe(1);
    expect(moved('invalid')).toBe(1);
    expect(moved('rate_limited')).toBeGreaterThanOrEqual(1);
    expect(
      after.value('http_request_duration_seconds_count', { route: 'unmatched', status_code: '404' }),
    ).toBeGreaterThan(before.value('http_request_duration_seconds_count', { route: 'unmatched', status_code: '404' }));
    expect(after.text).not.toContain('path-segment-never-a-label');
  });

  it('counts idempotent requests by outcome: stored, replayed and mismatch', async () => {
    const other = (await createApiKey(ctx, { tenantId: await defaultTenantId(ctx) })).rawKey;
    const send = (body: unknown) =>
      request(gateway.url, 'POST', `${BASE}/items`, {
        body,
        headers: { 'x-api-key': other, 'idempotency-key': 'metrics-idem-1' },
      });
    const before = await scrape();

    expect((await send({ sku: 'IDEM-1', name: 'one', baseUomCode: 'EA' })).status).toBe(200);
    expect((await send({ sku: 'IDEM-1', name: 'one', baseUomCode: 'EA' })).headers.get('idempotent-replay')).toBe(
      'true',
    );
    expect((await send({ sku: 'IDEM-1', name: 'two', baseUomCode: 'EA' })).status).toBe(409);

    const after = await scrape();
    const moved = (outcome: string) =>
      after.value('wms_idempotency_total', { outcome }) - before.value('wms_idempotency_total', { outcome });
    expect([moved('stored'), moved('replayed'), moved('mismatch')]).toEqual([1, 1, 1]);
  });
});
