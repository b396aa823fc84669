import { randomBytes } from 'node:crypto';
import type { RedisClient } from '../redis/index.js';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { isRefusal } from './refusal.js';
import type { Logger } from '../logging/index.js';
import { rateLimitFallbacks } from '../metrics/index.js';
import type { RedisDeadline } from '../redis/index.js';

/**
 * A sliding log in one sorted set per key: members are the requests that passed, scored by Redis
 * server time in microseconds. One atomic script drops what left the window, counts, and admits or
 * refuses, so every gateway replica shares one exact count and one clock. Refused requests are not
 * recorded: the limit is on answers that passed.
 *
 * Returns { allowed (1|0), remaining, microseconds until the oldest counted request leaves }.
 */
const SLIDING_LOG_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
local allowed = 0
if count < limit then
  redis.call('ZADD', KEYS[1], now, now .. ':' .. ARGV[3])
  redis.call('PEXPIRE', KEYS[1], math.ceil(window / 1000))
  count = count + 1
  allowed = 1
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
local reset = window
if oldest[2] then reset = tonumber(oldest[2]) + window - now end
local remaining = limit - count
if remaining < 0 then remaining = 0 end
return { allowed, remaining, reset }
`;

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Whole seconds until the oldest counted request leaves the window (at least 1). */
  resetSeconds: number;
  /** Which store decided: 'redis' normally, 'memory' while Redis does not answer. */
  store: 'redis' | 'memory';
}

export interface SlidingWindowOptions {
  keyPrefix: string;
  /** 60 000 in production; tests shorten it through the gateway's test-only option. */
  windowMs: number;
  /** Bounds each Redis call; a call it refuses or times out counts as Redis not answering. */
  deadline: RedisDeadline;
}

type ScriptRedis = RedisClient & {
  wmsSlidingLog(key: string, limit: number, windowUs: number, member: string): Promise<[number, number, number]>;
};

/**
 * The per-key rate limit: at most rateLimitPerMinute requests in any sliding minute. When Redis fails or is
 * slower than its deadline, an in-process limiter of the same size takes over (per process, so never an
 * unlimited flood), and the switch is logged once each way.
 */
export class SlidingWindowLimiter {
  private readonly redis: ScriptRedis;
  private readonly fallbacks = new Map<number, RateLimiterMemory>();
  private readonly memberSuffix = randomBytes(6).toString('hex');
  private sequence = 0;
  private degraded = false;

  constructor(
    redis: RedisClient,
    private readonly logger: Logger,
    private readonly options: SlidingWindowOptions,
  ) {
    redis.defineCommand('wmsSlidingLog', { numberOfKeys: 1, lua: SLIDING_LOG_SCRIPT });
    this.redis = redis as ScriptRedis;
  }

  get windowSeconds(): number {
    return Math.ceil(this.options.windowMs / 1000);
  }

  async hit(id: string, limit: number): Promise<RateLimitDecision> {
    try {
      const decision = await this.hitRedis(id, limit);
      if (this.degraded) {
        this.degraded = false;
        this.logger.info('rate limiter: RedisClient answers again; per-key limits are shared across replicas again');
      }
      return decision;
    } catch (error) {
      if (!this.degraded) {
        this.degraded = true;
        this.logger.warn(
          { err: error },
          'rate limiter: RedisClient does not answer; using in-process limits until it does',
        );
      }
      rateLimitFallbacks.inc();
      return this.hitMemory(id, limit);
    }
  }

  private async hitRedis(id: string, limit: number): Promise<RateLimitDecision> {
    // Unique member per admitted request: two requests in the same microsecond must both count.
    const member = `${this.memberSuffix}:${(this.sequence = (this.sequence + 1) % 1e9)}`;
    const [allowed, remaining, resetUs] = await this.options.deadline.run(() =>
      this.redis.wmsSlidingLog(`${this.options.keyPrefix}:${id}`, limit, this.options.windowMs * 1000, member),
    );
    return {
      allowed: allowed === 1,
      limit,
      remaining,
      resetSeconds: Math.max(1, Math.ceil(resetUs / 1e6)),
      store: 'redis',
    };
  }

  private async hitMemory(id: string, limit: number): Promise<RateLimitDecision> {
    let limiter = this.fallbacks.get(limit);
    if (!limiter) {
      limiter = new RateLimiterMemory({ keyPrefix: 'fallback', points: limit, duration: this.windowSeconds });
      this.fallbacks.set(limit, limiter);
    }
    try {
      const result = await limiter.consume(id);
      return {
        allowed: true,
        limit,
        remaining: result.remainingPoints,
        resetSeconds: Math.max(1, Math.ceil(result.msBeforeNext / 1000)),
        store: 'memory',
      };
    } catch (rejection) {
      if (!isRefusal(rejection)) throw rejection;
      return {
        allowed: false,
        limit,
        remaining: 0,
        resetSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)),
        store: 'memory',
      };
    }
  }
}
