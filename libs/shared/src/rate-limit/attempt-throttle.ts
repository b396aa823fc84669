import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterRes } from 'rate-limiter-flexible';
import { isRefusal } from './refusal.js';

export interface AttemptThrottleOptions {
  keyPrefix: string;
  /** Failed attempts allowed per address within `durationSeconds`. */
  points: number;
  durationSeconds: number;
}

/**
 * Per-address throttling of guessing (wrong passwords, unknown API keys), shared across replicas in
 * Redis, with an in-process limiter as insurance when Redis does not answer. An attempt consumes a point
 * before it is checked, so a burst in flight cannot overshoot; a success gives its point back, so only
 * failures add up.
 */
export class AttemptThrottle {
  private readonly limiter: RateLimiterRedis;
  private readonly points: number;

  constructor(redis: Redis, options: AttemptThrottleOptions) {
    this.points = options.points;
    this.limiter = new RateLimiterRedis({
      storeClient: redis,
      keyPrefix: options.keyPrefix,
      points: options.points,
      duration: options.durationSeconds,
      rejectIfRedisNotReady: true,
      insuranceLimiter: new RateLimiterMemory({ keyPrefix: `${options.keyPrefix}:insurance`, points: options.points, duration: options.durationSeconds }),
    });
  }

  /** Counts one attempt; returns the whole seconds to wait when the address is over its limit, else null. */
  async attempt(address: string): Promise<number | null> {
    try {
      await this.limiter.consume(address);
      return null;
    } catch (rejection) {
      // Anything but a refusal (both stores failing) must not lock callers out.
      if (!isRefusal(rejection)) return null;
      return Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
    }
  }

  /**
   * Whole seconds the address must still wait when its failures have used up the limit, else null; counts
   * nothing. For checks where success is the rule (known API keys), so a burst of good requests is never
   * refused for being in flight at once; only `failed` adds up.
   */
  async blockedFor(address: string): Promise<number | null> {
    try {
      const state = await this.limiter.get(address);
      return state && state.consumedPoints >= this.points ? Math.max(1, Math.ceil(state.msBeforeNext / 1000)) : null;
    } catch {
      return null;
    }
  }

  /** Counts one failed attempt against the address. */
  async failed(address: string): Promise<void> {
    await this.limiter.penalty(address, 1).catch(() => undefined);
  }

  /** The attempt succeeded: it does not count against the address. */
  async succeeded(address: string): Promise<void> {
    await this.limiter.reward(address, 1).catch(() => undefined);
  }
}
