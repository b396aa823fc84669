import {
  createApiKey,
  createTestContext,
  loginAs,
  request,
  TEST_ADMIN,
  type TestContext,
  type TestGateway,
} from '@wms/testing';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

interface Point {
  at: string;
  requests: number;
  errors: number;
}

interface Stats {
  requests24h: number;
  requests7d: number;
  hourly: Point[];
  daily: Point[];
}

/** The bucket of `points` that holds `time`, given the bucket length. */
function bucketOf(points: Point[], time: number, length: number): Point | undefined {
  return points.find((point) => {
    const start = new Date(point.at).getTime();
    return start <= time && time < start + length;
  });
}

describe('GET /api/v1/api-keys/:id/stats: traffic per hour and per day', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let token: string;

  beforeAll(async () => {
    ctx = await createTestContext('api-key-traffic');
    gateway = await ctx.startGateway();
    token = await loginAs(gateway.url, TEST_ADMIN.email, TEST_ADMIN.password);
  });
  afterAll(() => ctx.close());

  it('answers 24 hourly and 7 daily UTC buckets, empty ones as zeros, each request in its own bucket', async () => {
    const key = await createApiKey(ctx);
    const other = await createApiKey(ctx);
    const now = Date.now();
    const logs = [
      { age: 1_000, status: 200 },
      { age: 1_000, status: 404 },
      { age: 2 * HOUR, status: 200 },
      { age: 5 * HOUR, status: 500 },
      { age: 3 * DAY, status: 201 },
      { age: 10 * DAY, status: 200 },
    ].map(({ age, status }) => ({
      apiKeyId: key.id,
      endpoint: '/api/v1/integration/v1/items',
      method: 'POST',
      ip: null,
      origin: null,
      statusCode: status,
      responseTimeMs: 3,
      createdAt: new Date(now - age),
    }));
    await ctx.services.apiKeys.repository.insertRequestLogs([...logs, { ...logs[0]!, apiKeyId: other.id }]);

    const response = await request<Stats>(gateway.url, 'GET', `/api/v1/api-keys/${key.id}/stats`, { token });

    expect(response.status).toBe(200);
    const { hourly, daily } = response.body;
    expect(hourly).toHaveLength(24);
    expect(daily).toHaveLength(7);
    for (const series of [hourly, daily]) {
      for (const point of series) expect(new Date(point.at).getUTCMinutes()).toBe(0);
    }
    for (const point of daily) expect(new Date(point.at).getUTCHours()).toBe(0);
    expect(new Date(hourly[23]!.at).getTime()).toBeLessThanOrEqual(now);
    expect(new Date(hourly[23]!.at).getTime()).toBeGreaterThan(now - HOUR);

    const expectedHourly = new Map<string, { requests: number; errors: number }>();
    const expectedDaily = new Map<string, { requests: number; errors: number }>();
    for (const entry of logs) {
      const time = entry.createdAt.getTime();
      for (const [series, expected, length] of [
        [hourly, expectedHourly, HOUR],
        [daily, expectedDaily, DAY],
      ] as const) {
        const bucket = bucketOf(series, time, length);
        if (!bucket) continue;
        const counts = expected.get(bucket.at) ?? { requests: 0, errors: 0 };
        counts.requests += 1;
        if (entry.statusCode >= 400) counts.errors += 1;
        expected.set(bucket.at, counts);
      }
    }
    for (const [series, expected] of [
      [hourly, expectedHourly],
      [daily, expectedDaily],
    ] as const) {
      for (const point of series) {
        expect({ at: point.at, requests: point.requests, errors: point.errors }).toEqual({
          at: point.at,
          ...(expected.get(point.at) ?? { requests: 0, errors: 0 }),
        });
      }
    }
    // The three requests of the last hours fall into the hourly series; the 10-day-old one into neither.
    expect(hourly.reduce((sum, point) => sum + point.requests, 0)).toBe(4);
    expect(daily.reduce((sum, point) => sum + point.requests, 0)).toBe(5);
    expect(response.body).toMatchObject({ requests24h: 4, requests7d: 5 });
  });

  it('a key without traffic has every bucket at zero', async () => {
    const key = await createApiKey(ctx);

    const response = await request<Stats>(gateway.url, 'GET', `/api/v1/api-keys/${key.id}/stats`, { token });

    expect(response.body.hourly.every((point: Point) => point.requests === 0 && point.errors === 0)).toBe(true);
    expect(response.body.daily.every((point: Point) => point.requests === 0 && point.errors === 0)).toBe(true);
  });
});
