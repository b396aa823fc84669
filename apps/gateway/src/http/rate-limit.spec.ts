import {
  createApiKey,
  createTestContext,
  request,
  scrapeMetrics,
  waitFor,
  type HttpResponse,
  type TestContext,
  type TestGateway,
} from '@wms/testing';

/** A request the guard lets through reaches the integration API's envelope 404 (no handler on this path). */
const PATH = '/api/v1/integration/v1/no-such-route';
/** Tests only: a short window, so the window can be seen sliding without waiting a minute. */
const WINDOW_MS = 2_000;

describe('per-key rate limit (sliding window in Redis)', () => {
  let ctx: TestContext;
  let gatewayA: TestGateway;
  let gatewayB: TestGateway;

  beforeAll(async () => {
    ctx = await createTestContext('rate-limit');
    gatewayA = await ctx.startGateway({}, { apiKeys: { rateLimitWindowMs: WINDOW_MS } });
    gatewayB = await ctx.startGateway({}, { apiKeys: { rateLimitWindowMs: WINDOW_MS } });
  });
  afterAll(() => ctx.close());

  const call = (gateway: TestGateway, rawKey: string) =>
    request(gateway.url, 'GET', PATH, { headers: { 'x-api-key': rawKey } });

  it('when 3N requests are in flight across two gateways, exactly N pass and the rest get 429', async () => {
    const limit = 6;
    const { rawKey } = await createApiKey(ctx, { rateLimitPerMinute: limit });
    // Gateways of the production window (a minute): on a busy machine the burst may take longer than the
    // other tests' two seconds, and requests that leave the window would free slots for later ones.
    const [first, second] = await Promise.all([ctx.startGateway(), ctx.startGateway()]);

    const responses = await Promise.all(
      Array.from({ length: 3 * limit }, (_, i) => call(i % 2 ? first : second, rawKey)),
    );

    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 404)).toHaveLength(limit);
    expect(statuses.filter((status) => status === 429)).toHaveLength(2 * limit);
  });

  it('when the limit is used up, the 429 has the plain shape with retryAfter equal to Retry-After and all rate-limit headers', async () => {
    const { rawKey } = await createApiKey(ctx, { rateLimitPerMinute: 2 });

    const first = await call(gatewayA, rawKey);
    await call(gatewayB, rawKey);
    const refused = await call(gatewayA, rawKey);

    expect(first.status).toBe(404);
    expect(first.headers.get('x-ratelimit-limit')).toBe('2');
    expect(first.headers.get('x-ratelimit-remaining')).toBe('1');
    expect(first.headers.get('ratelimit-policy')).toBe(`"key";q=2;w=${WINDOW_MS / 1000}`);
    expect(first.headers.get('ratelimit')).toMatch(/^"key";r=1;t=[12]$/);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      statusCode: 429,
      message: `Rate limit exceeded for this API key. Retry in ${refused.body.retryAfter} seconds.`,
      error: 'Too Many Requests',
      code: 'RATE_LIMITED',
      retryAfter: expect.any(Number),
      requestId: expect.any(String),
    });
    expect(refused.body.retryAfter).toBeGreaterThanOrEqual(1);
    expect(refused.body.retryAfter).toBeLessThanOrEqual(WINDOW_MS / 1000);
    expect(refused.headers.get('retry-after')).toBe(String(refused.body.retryAfter));
    expect(refused.headers.get('x-ratelimit-limit')).toBe('2');
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(refused.headers.get('ratelimit')).toBe(`"key";r=0;t=${refused.body.retryAfter}`);
  });

  it('when the oldest requests leave the window, exactly that many slots free up (a sliding, not a fixed, window)', async () => {
    const { rawKey } = await createApiKey(ctx, { rateLimitPerMinute: 4 });
    const early = await Promise.all([call(gatewayA, rawKey), call(gatewayB, rawKey)]);
    const earlyAt = Date.now();
    await waitFor(
      async () => Date.now(),
      (now) => now - earlyAt >= WINDOW_MS / 2,
      WINDOW_MS,
    );
    const late = await Promise.all([call(gatewayA, rawKey), call(gatewayB, rawKey)]);
    expect([...early, ...late].map((response) => response.status)).toEqual([404, 404, 404, 404]);
    expect((await call(gatewayA, rawKey)).status).toBe(429);

    // As the two early requests leave the window (sent together, they were counted a few milliseconds
    // apart on a busy machine), two requests pass again...
    const passes = (gateway: TestGateway, within: number) =>
      waitFor(
        () => call(gateway, rawKey),
        (response) => response.status === 404,
        within,
      );
    const again = await passes(gatewayB, 2 * WINDOW_MS);
    const secondAgain = await passes(gatewayA, WINDOW_MS / 4);
    // ...and no more, because the two late ones are still inside it.
    const next: HttpResponse = await call(gatewayB, rawKey);

    expect(again.status).toBe(404);
    expect(secondAgain.status).toBe(404);
    expect(next.status).toBe(429);
  });

  it('when a key is unlimited, its answers carry no rate-limit headers', async () => {
    const { rawKey } = await createApiKey(ctx, { rateLimitPerMinute: 0 });

    const response = await call(gatewayA, rawKey);

    expect(response.status).toBe(404);
    expect(response.headers.get('x-ratelimit-limit')).toBeNull();
    expect(response.headers.get('x-ratelimit-remaining')).toBeNull();
    expect(response.headers.get('ratelimit')).toBeNull();
    expect(response.headers.get('ratelimit-policy')).toBeNull();
  });

  it('when Redis does not answer, an in-process limiter still enforces the limit and requests do not fail for that', async () => {
    const offline = await ctx.startGateway(
      { REDIS_URL: 'redis://127.0.0.1:1' },
      { apiKeys: { rateLimitWindowMs: WINDOW_MS } },
    );
    const { rawKey } = await createApiKey(ctx, { rateLimitPerMinute: 3 });
    const before = await scrapeMetrics(offline.url);

    const responses = [];
    for (let i = 0; i < 5; i++) responses.push(await call(offline, rawKey));

    expect(responses.map((response) => response.status)).toEqual([404, 404, 404, 429, 429]);
    expect(responses[0]!.headers.get('x-ratelimit-remaining')).toBe('2');
    expect(responses[3]!.headers.get('retry-after')).toBe(String(responses[3]!.body.retryAfter));
    // Operators see the fallback: every decision taken in-process is counted, and /metrics answers without Redis.
    const after = await scrapeMetrics(offline.url);
    expect(after.status).toBe(200);
    expect(after.value('wms_rate_limit_fallbacks_total') - before.value('wms_rate_limit_fallbacks_total')).toBe(5);
  });
});
