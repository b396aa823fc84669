import { createApiKey, createTestContext, type TestContext } from '@wms/testing';
import type { RequestLogEntry } from './request-log.repository.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const PER_KEY = 3_000;

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

interface RawFigures {
  requests7d: number;
  requests24h: number;
  errors: number;
  avgUs: number;
}

describe('key statistics from the hourly rollups', () => {
  let ctx: TestContext;
  const keys: string[] = [];

  beforeAll(async () => {
    ctx = await createTestContext('request-log-rollups');
    const next = random(42);
    const now = Date.now();
    for (let k = 0; k < 3; k++) {
      const { id } = await createApiKey(ctx);
      keys.push(id);
      const entries: RequestLogEntry[] = Array.from({ length: PER_KEY }, () => ({
        apiKeyId: id,
        endpoint: next() < 0.5 ? '/api/v1/integration/v1/items' : '/api/v1/integration/v1/orders/:orderNo',
        method: next() < 0.5 ? 'GET' : 'POST',
        ip: '192.0.2.1',
        origin: null,
        statusCode: [200, 201, 400, 404, 500][Math.floor(next() * 5)]!,
        responseTimeMs: Math.round(next() * 500_000) / 1000,
        // Nine days back, so the windows' edges cut through the data.
        createdAt: new Date(now - Math.floor(next() * 9 * DAY)),
      }));
      for (let i = 0; i < entries.length; i += 500)
        await ctx.services.apiKeys.repository.insertRequestLogs(entries.slice(i, i + 500));
    }
  });
  afterAll(() => ctx.close());

  /** The same figures straight from the raw log, over the same UTC windows. */
  async function raw(id: string): Promise<RawFigures> {
    const [rows] = (await ctx.runtime.db.sequelize.query(
      `WITH w AS (SELECT date_trunc('hour', now(), 'UTC') AS h)
       SELECT count(*) FILTER (WHERE created_at >= date_trunc('day', w.h, 'UTC') - interval '6 days')::int AS "requests7d",
              count(*) FILTER (WHERE created_at >= w.h - interval '23 hours')::int AS "requests24h",
              count(*) FILTER (WHERE created_at >= date_trunc('day', w.h, 'UTC') - interval '6 days'
                                 AND status_code >= 400)::int AS errors,
              coalesce(avg(response_time_us) FILTER (
                WHERE created_at >= date_trunc('day', w.h, 'UTC') - interval '6 days'), 0)::float8 AS "avgUs"
         FROM api_key_request_logs, w
        WHERE api_key_id = :id AND created_at < w.h + interval '1 hour'`,
      { replacements: { id } },
    )) as [RawFigures[], unknown];
    return rows[0]!;
  }

  it('when keys have generated traffic, the counts, error rate and average equal those of the raw log', async () => {
    for (const id of keys) {
      const expected = await raw(id);

      const stats = await ctx.services.apiKeys.stats(id, { userId: null, tenantId: null });

      expect(stats.requests7d).toBe(expected.requests7d);
      expect(stats.requests24h).toBe(expected.requests24h);
      expect(stats.errorRate).toBeCloseTo(expected.errors / expected.requests7d, 12);
      expect(stats.avgResponseTimeMs).toBe(Math.round(expected.avgUs / 10) / 100);
      expect(stats.daily.reduce((sum, point) => sum + point.requests, 0)).toBe(expected.requests7d);
      expect(stats.recentRequests).toHaveLength(50);
    }
  });

  it('when the overview sums a day of traffic, each key has the same count as its raw log', async () => {
    const overview = await ctx.services.overview.summary(
      { sub: 'x', email: 'a@b.c', role: 'admin', tenantId: null, adminModules: ['api-keys'], adminModulesWrite: [] },
      () => Promise.resolve([]),
    );

    for (const id of keys) {
      const expected = await raw(id);
      const key = overview.traffic!.busiestKeys.find((busy) => busy.id === id);
      expect(key?.requests24h).toBe(expected.requests24h);
    }
  });
});
