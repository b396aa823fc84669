import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { RedisClient, RedisDeadline } from '../redis/index.js';
import { isRefusal } from './refusal.js';

export interface AttemptThrottleOptions {
  keyPrefix: string;
  /** Failed attempts allowed per address within `durationSeconds`. */
  points: number;
  durationSeconds: number;
  /** Bounds every Redis call; a slow or paused Redis is answered by the in-process limiter instead. */
  deadline: RedisDeadline;
}

/**
 * Per-address throttling of guessing (wrong passwords, unknown API keys), shared across replicas in
 * Redis, with an in-process limiter as insurance when Redis fails or does not answer within the
 * deadline (rate-limiter-flexible's own insurance covers errors only, not a Redis that hangs). An
 * attempt consumes a point before it is checked, so a burst in flight cannot overshoot; a success gives
 * its point back, so only failures add up.
 */
export class AttemptThrottle {
  private readonly limiter: RateLimiterRedis;
  private readonly insurance: RateLimiterMemory;
  private readonly points: number;
  private readonly deadline: RedisDeadline;

  constructor(redis: RedisClient, options: AttemptThrottleOptions) {
    this.points = options.points;
    this.deadline = options.deadline;
    this.insurance = new RateLimiterMemory({
      keyPrefix: `${options.keyPrefix}:insurance`,
      points: options.points,
      duration: options.durationSeconds,
    });
    this.limiter = new RateLimiterRedis({
      storeClient: redis,
      keyPrefix: options.keyPrefix,
      points: options.points,
      duration: options.durationSeconds,
      rejectIfRedisNotReady: true,
      insuranceLimiter: this.insurance,
    });
  }

  /** Counts one attempt; returns the whole seconds to wait when the address is over its limit, else null. */
  async attempt(address: string): Promise<number | null> {
    try {
      await this.bounded((limiter) => limiter.consume(address));
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
      const state = await this.bounded((limiter) => limiter.get(address));
      return state && state.consumedPoints >= this.points ? Math.max(1, Math.ceil(state.msBeforeNext / 1000)) : null;
    } catch {
      return null;
    }
  }

  /** Counts one failed attempt against the address. */
  async failed(address: string): Promise<void> {
    await this.bounded((limiter) => limiter.penalty(address, 1)).catch(() => undefined);
  }

  /** The attempt succeeded: it does not count against the address. */
  async succeeded(address: string): Promise<void> {
    await this.bounded((limiter) => limiter.reward(address, 1)).catch(() => undefined);
  }

  /**
   * Asks Redis within the deadline; when Redis is too slow (or recently was), asks the in-process limiter.
   * A refusal of either store is passed on as it is.
   */
  private async bounded<T>(work: (limiter: RateLimiterAbstract) => Promise<T>): Promise<T> {
    try {
      return await this.deadline.run(() => work(this.limiter));
    } catch (error) {
      if (isRefusal(error)) throw error;
      return work(this.insurance);
    }
  }
}
