import { QueryTypes } from 'sequelize';
import {
  createApiKey,
  createTestContext,
  defaultTenantId,
  loginAs,
  request,
  TEST_ADMIN,
  type TestContext,
  type TestGateway,
} from '@wms/testing';

const FEED = '/api/v1/integration/v1/events';

interface Point {
  at: string;
  requests: number;
  rateLimited: number;
  refused: number;
}

interface Stats {
  requests24h: number;
  requests7d: number;
  rateLimited: number;
  rateLimited24h: number;
  refused: number;
  refused24h: number;
  hourly: Point[];
  daily: Point[];
}

interface Traffic {
  requests24h: number;
  rateLimited24h: number;
  refused24h: number;
  busiestKeys: Array<{ id: string; requests24h: number; rateLimited24h: number; refused24h: number }>;
}

const sum = (points: Point[], field: 'requests' | 'rateLimited' | 'refused') =>
  points.reduce((total, point) => total + point[field], 0);

describe('a key’s calls by outcome: answered, rate-limited, refused by IP or origin', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let token: string;
  let tenantId: string;

  beforeAll(async () => {
    ctx = await createTestContext('api-key-outcomes');
    gateway = await ctx.startGateway();
    token = await loginAs(gateway.url, TEST_ADMIN.email, TEST_ADMIN.password);
    tenantId = await defaultTenantId(ctx);
  });
  afterAll(() => ctx.close());

  const logRows = async (apiKeyId: string): Promise<number> => {
    const [row] = await ctx.runtime.db.sequelize.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM api_key_request_logs WHERE api_key_id = :apiKeyId',
      { replacements: { apiKeyId }, type: QueryTypes.SELECT },
    );
    return row!.n;
  };

  it('when a key is throttled 100 times, its stats and the overview show 100 rate-limited calls and no log row for them', async () => {
    const key = await createApiKey(ctx, { tenantId, rateLimitPerMinute: 1 });
    const first = await request(gateway.url, 'GET', FEED, { headers: { 'x-api-key': key.rawKey } });
    expect(first.status).toBe(200);

    const throttled = await Promise.all(
      Array.from({ length: 100 }, () => request(gateway.url, 'GET', FEED, { headers: { 'x-api-key': key.rawKey } })),
    );
    await gateway.flushRequestLog();

    expect(throttled.map((answer) => answer.status)).toEqual(Array.from({ length: 100 }, () => 429));
    const stats = await request<Stats>(gateway.url, 'GET', `/api/v1/api-keys/${key.id}/stats`, { token });
    expect(stats.status).toBe(200);
    expect(stats.body).toMatchObject({
      requests24h: 1,
      requests7d: 1,
      rateLimited: 100,
      rateLimited24h: 100,
      refused: 0,
      refused24h: 0,
    });
    expect(sum(stats.body.hourly, 'rateLimited')).toBe(100);
    expect(sum(stats.body.daily, 'rateLimited')).toBe(100);
    expect(sum(stats.body.hourly, 'requests')).toBe(1);
    const overview = await request<{ traffic: Traffic }>(gateway.url, 'GET', '/api/v1/overview', { token });
    expect(overview.body.traffic.rateLimited24h).toBe(100);
    expect(overview.body.traffic.busiestKeys.find((row) => row.id === key.id)).toMatchObject({
      requests24h: 1,
      rateLimited24h: 100,
      refused24h: 0,
    });
    expect(await logRows(key.id)).toBe(1);
  });

  it('counts the calls its IP whitelist and allowed origins refused (403) as refused, beside the answered ones', async () => {
    const fenced = await createApiKey(ctx, { tenantId, ipWhitelist: ['10.1.2.3'] });
    const picky = await createApiKey(ctx, { tenantId, allowedOrigins: ['https://shop.example'] });

    const byIp = await request(gateway.url, 'GET', FEED, { headers: { 'x-api-key': fenced.rawKey } });
    const byOrigin = await request(gateway.url, 'GET', FEED, {
      headers: { 'x-api-key': picky.rawKey, origin: 'https://elsewhere.example' },
    });
    const allowed = await request(gateway.url, 'GET', FEED, {
      headers: { 'x-api-key': picky.rawKey, origin: 'https://shop.example' },
    });
    await gateway.flushRequestLog();

    expect([byIp.status, byOrigin.status, allowed.status]).toEqual([403, 403, 200]);
    const fencedStats = await request<Stats>(gateway.url, 'GET', `/api/v1/api-keys/${fenced.id}/stats`, { token });
    const pickyStats = await request<Stats>(gateway.url, 'GET', `/api/v1/api-keys/${picky.id}/stats`, { token });
    expect(fencedStats.body).toMatchObject({ requests24h: 0, refused: 1, refused24h: 1, rateLimited: 0 });
    expect(pickyStats.body).toMatchObject({ requests24h: 1, refused: 1, refused24h: 1, rateLimited: 0 });
    expect(sum(pickyStats.body.hourly, 'refused')).toBe(1);
    const overview = await request<{ traffic: Traffic }>(gateway.url, 'GET', '/api/v1/overview', { token });
    expect(overview.body.traffic.refused24h).toBe(2);
    expect(await logRows(fenced.id)).toBe(0);
  });
});
