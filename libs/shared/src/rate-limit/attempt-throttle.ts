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

  constructor(redis: Redis, options: AttemptThrottleOptions) {
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

  /** The attempt succeeded: it does not count against the address. */
  async succeeded(address: string): Promise<void> {
    await this.limiter.reward(address, 1).catch(() => undefined);
  }
}
