import type { RedisClient } from '../redis/index.js';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { isRefusal } from './refusal.js';
import type { Logger } from '../logging/index.js';
import { rateLimitFallbacks } from '../metrics/index.js';
import type { RedisDeadline } from '../redis/index.js';

/**
 * A sliding log of the requests that passed, counted per millisecond: per key, a hash of counts by the
 * millisecond (Redis server time) they passed in, with their running total, and a sorted set of those
 * milliseconds for their order. One atomic script drops the milliseconds that left the window (taking
 * their counts off the total), and admits as many of the ARGV[3] requests waiting in this process as still
 * fit, so every gateway replica shares one exact count and one clock. Refused requests are not recorded:
 * the limit is on answers that passed.
 *
 * A key costs Redis one entry per busy millisecond of the window, whatever its rate: a log with one member
 * per request held up to a million for a key at its limit of 1,000,000 a minute
 * (docs/adr/0029-api-key-guard-and-verification-cache.md). Both keys carry the key's id as a hash tag, so
 * on a cluster they share a slot.
 *
 * Returns { admitted, count before them, milliseconds until the oldest counted request leaves }.
 */
const SLIDING_LOG_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local waiting = tonumber(ARGV[3])
local total = tonumber(redis.call('HGET', KEYS[2], 'total') or '0')
while true do
  local left = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now - window, 'LIMIT', 0, 1000)
  if #left == 0 then break end
  local counts = redis.call('HMGET', KEYS[2], unpack(left))
  for i = 1, #counts do total = total - (tonumber(counts[i]) or 0) end
  redis.call('HDEL', KEYS[2], unpack(left))
  redis.call('ZREM', KEYS[1], unpack(left))
end
if total < 0 then total = 0 end
local admitted = math.max(0, math.min(waiting, limit - total))
if admitted > 0 then
  redis.call('HINCRBY', KEYS[2], now, admitted)
  redis.call('ZADD', KEYS[1], now, now)
end
redis.call('HSET', KEYS[2], 'total', total + admitted)
redis.call('PEXPIRE', KEYS[1], window)
redis.call('PEXPIRE', KEYS[2], window)
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
local reset = window
if oldest[2] then reset = tonumber(oldest[2]) + window - now end
return { admitted, total, reset }
`;

/** The most requests one script call decides; more wait for the next. */
const MAX_BATCH = 500;

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
  wmsSlidingLog(
    millisecondsKey: string,
    countsKey: string,
    limit: number,
    windowMs: number,
    waiting: number,
  ): Promise<[number, number, number]>;
};

interface Waiter {
  resolve(decision: RateLimitDecision): void;
  reject(error: unknown): void;
}

/** One key at one limit: the requests waiting for a decision, and whether a script call for it is out. */
interface Slot {
  name: string;
  id: string;
  limit: number;
  waiters: Waiter[];
  inFlight: boolean;
  scheduled: boolean;
}

/**
 * The per-key rate limit: at most rateLimitPerMinute requests in any sliding minute. Decisions are group
 * commits: a key has at most one script call out at a time, and the requests that arrive meanwhile are
 * decided together by the next call, in their order of arrival. A lone request is sent at the end of its
 * event-loop turn, so nothing waits at low load, while a busy key costs Redis one call per round trip
 * rather than one per request; the count stays exact. When Redis fails or is slower than its deadline,
 * an in-process limiter of the same size takes over (per process, so never an unlimited flood), and the
 * switch is logged once each way.
 */
export class SlidingWindowLimiter {
  private readonly redis: ScriptRedis;
  private readonly fallbacks = new Map<number, RateLimiterMemory>();
  private degraded = false;
  private readonly slots = new Map<string, Slot>();
  /** Slots to send at the end of this turn of the event loop. */
  private due: Slot[] = [];

  constructor(
    redis: RedisClient,
    private readonly logger: Logger,
    private readonly options: SlidingWindowOptions,
  ) {
    redis.defineCommand('wmsSlidingLog', { numberOfKeys: 2, lua: SLIDING_LOG_SCRIPT });
    this.redis = redis as ScriptRedis;
  }

  get windowSeconds(): number {
    return Math.ceil(this.options.windowMs / 1000);
  }

  hit(id: string, limit: number): Promise<RateLimitDecision> {
    const name = `${limit}:${id}`;
    let slot = this.slots.get(name);
    if (!slot) {
      slot = { name, id, limit, waiters: [], inFlight: false, scheduled: false };
      this.slots.set(name, slot);
    }
    const waiting = slot;
    const decision = new Promise<RateLimitDecision>((resolve, reject) => waiting.waiters.push({ resolve, reject }));
    this.schedule(slot);
    return decision;
  }

  private schedule(slot: Slot): void {
    if (slot.inFlight || slot.scheduled) return;
    slot.scheduled = true;
    if (this.due.push(slot) === 1) setImmediate(() => this.sendDue());
  }

  private sendDue(): void {
    const due = this.due;
    this.due = [];
    for (const slot of due) {
      slot.scheduled = false;
      this.send(slot);
    }
  }

  private send(slot: Slot): void {
    const waiters = slot.waiters.splice(0, MAX_BATCH);
    slot.inFlight = true;
    this.decide(slot.id, slot.limit, waiters.length)
      .then(
        (decisions) => waiters.forEach((waiter, i) => waiter.resolve(decisions[i]!)),
        (error: unknown) => waiters.forEach((waiter) => waiter.reject(error)),
      )
      .finally(() => {
        slot.inFlight = false;
        if (slot.waiters.length > 0) this.schedule(slot);
        else this.slots.delete(slot.name);
      });
  }

  private async decide(id: string, limit: number, waiting: number): Promise<RateLimitDecision[]> {
    try {
      const decisions = await this.hitRedis(id, limit, waiting);
      if (this.degraded) {
        this.degraded = false;
        this.logger.info('rate limiter: Redis answers again; per-key limits are shared across replicas again');
      }
      return decisions;
    } catch (error) {
      if (!this.degraded) {
        this.degraded = true;
        this.logger.warn({ err: error }, 'rate limiter: Redis does not answer; using in-process limits until it does');
      }
      rateLimitFallbacks.inc(waiting);
      const decisions: RateLimitDecision[] = [];
      for (let i = 0; i < waiting; i++) decisions.push(await this.hitMemory(id, limit));
      return decisions;
    }
  }

  private async hitRedis(id: string, limit: number, waiting: number): Promise<RateLimitDecision[]> {
    const key = `${this.options.keyPrefix}:{${id}}`;
    const [admitted, before, resetMs] = await this.options.deadline.run(() =>
      this.redis.wmsSlidingLog(`${key}:ms`, `${key}:counts`, limit, this.options.windowMs, waiting),
    );
    const resetSeconds = Math.max(1, Math.ceil(resetMs / 1000));
    const decisions: RateLimitDecision[] = [];
    for (let i = 0; i < waiting; i++) {
      const allowed = i < admitted;
      const remaining = allowed ? Math.max(0, limit - before - i - 1) : 0;
      decisions.push({ allowed, limit, remaining, resetSeconds, store: 'redis' });
    }
    return decisions;
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
