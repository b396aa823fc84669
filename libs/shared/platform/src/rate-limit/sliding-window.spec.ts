import { randomUUID } from 'node:crypto';
import { createTestContext, waitFor, type TestContext } from '@wms/testing';
import { createLogger } from '../logging/index.js';
import { RedisDeadline, redisKey } from '../redis/index.js';
import { SlidingWindowLimiter, type RateLimitDecision } from './sliding-window.js';

describe('sliding-window limiter (one script call per key and round trip)', () => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await createTestContext('sliding-window');
  });
  afterAll(() => ctx.close());

  /** A limiter as one gateway replica holds it, over this test file's Redis prefix. */
  function replica(windowMs = 60_000): SlidingWindowLimiter {
    return new SlidingWindowLimiter(ctx.runtime.redis, createLogger({ level: 'silent', name: 'test-limiter' }), {
      keyPrefix: redisKey(ctx.config.redisKeyPrefix, 'rate-limit', 'api-key'),
      windowMs,
      deadline: new RedisDeadline({ timeoutMs: 1_000, pauseMs: 1_000 }),
    });
  }

  const passed = (decisions: RateLimitDecision[]) => decisions.filter((decision) => decision.allowed).length;

  it('when 3N requests of one key arrive at once, the first N in arrival order pass, with remaining counting down to 0', async () => {
    const limiter = replica();
    const key = randomUUID();

    const decisions = await Promise.all(Array.from({ length: 30 }, () => limiter.hit(key, 10)));

    expect(decisions.slice(0, 10).map((decision) => decision.allowed)).toEqual(Array(10).fill(true));
    expect(decisions.slice(0, 10).map((decision) => decision.remaining)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
    for (const refused of decisions.slice(10)) {
      expect(refused).toMatchObject({ allowed: false, limit: 10, remaining: 0, store: 'redis' });
      expect(refused.resetSeconds).toBeGreaterThanOrEqual(1);
      expect(refused.resetSeconds).toBeLessThanOrEqual(60);
    }
  });

  it('when more requests arrive at once than one call decides, they are decided over several calls and the count stays exact', async () => {
    const limiter = replica();
    const key = randomUUID();

    const decisions = await Promise.all(Array.from({ length: 1_300 }, () => limiter.hit(key, 1_100)));

    expect(passed(decisions)).toBe(1_100);
    expect(decisions.findIndex((decision) => !decision.allowed)).toBe(1_100);
    // Redis keeps one count per millisecond that admitted requests, and their total: not one entry per request.
    const stored = `${redisKey(ctx.config.redisKeyPrefix, 'rate-limit', 'api-key')}:{${key}}`;
    const { total, ...perMillisecond } = await ctx.runtime.redis.hgetall(`${stored}:counts`);
    expect(Number(total)).toBe(1_100);
    expect(Object.values(perMillisecond).reduce((sum, count) => sum + Number(count), 0)).toBe(1_100);
    expect(await ctx.runtime.redis.zcard(`${stored}:ms`)).toBe(Object.keys(perMillisecond).length);
    expect(Object.keys(perMillisecond).length).toBeLessThanOrEqual(3);
  });

  it('when the counted requests leave the window, their milliseconds are dropped and the total falls with them', async () => {
    const limiter = replica(2_000);
    const key = randomUUID();
    const stored = `${redisKey(ctx.config.redisKeyPrefix, 'rate-limit', 'api-key')}:{${key}}`;
    // The window runs on Redis' clock (TIME in the script): the test reads the milliseconds the script stored
    // and waits for Redis' clock to pass a point, never for a guessed stretch of its own wall clock.
    const countedAt = async () => (await ctx.runtime.redis.zrange(`${stored}:ms`, 0, -1)).map(Number);
    const redisNow = async () => {
      const [seconds, microseconds] = await ctx.runtime.redis.time();
      return Number(seconds) * 1000 + Math.floor(Number(microseconds) / 1000);
    };
    const untilRedisTime = (at: number) => waitFor(redisNow, (now) => now >= at, 5_000, `Redis time ${at}`);

    expect(passed(await Promise.all([limiter.hit(key, 3), limiter.hit(key, 3)]))).toBe(2);
    const [first] = await countedAt();
    await untilRedisTime(first! + 1_000);
    expect((await limiter.hit(key, 3)).allowed).toBe(true);
    expect((await limiter.hit(key, 3)).allowed).toBe(false);
    // The first two leave the window; the third (a second later) is still in it.
    await untilRedisTime(first! + 2_000);
    const next = await limiter.hit(key, 3);

    expect(next).toMatchObject({ allowed: true, remaining: 1 });
    expect(await ctx.runtime.redis.hget(`${stored}:counts`, 'total')).toBe('2');
    expect(await ctx.runtime.redis.zcard(`${stored}:ms`)).toBe(2);
  });

  it('when two replicas take requests of one key at the same time, together they pass exactly the limit', async () => {
    const [a, b] = [replica(), replica()];
    const key = randomUUID();

    const decisions = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).hit(key, 15)));

    expect(passed(decisions)).toBe(15);
  });

  it('when requests of several keys and limits arrive at once, each key is counted on its own', async () => {
    const limiter = replica();
    const [small, large] = [randomUUID(), randomUUID()];

    const decisions = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? limiter.hit(small, 3) : limiter.hit(large, 8))),
    );

    expect(passed(decisions.filter((_, i) => i % 2))).toBe(3);
    expect(passed(decisions.filter((_, i) => i % 2 === 0))).toBe(8);
  });

  it('when a key comes back after its calls finished, its next request is decided against what is stored', async () => {
    const limiter = replica();
    const key = randomUUID();
    await Promise.all([limiter.hit(key, 3), limiter.hit(key, 3)]);

    const third = await limiter.hit(key, 3);
    const fourth = await limiter.hit(key, 3);

    expect(third).toMatchObject({ allowed: true, remaining: 0 });
    expect(fourth).toMatchObject({ allowed: false, remaining: 0 });
  });
});
