import { within } from '../lifecycle/index.js';
/** A Redis call that did not answer in time, or was not tried because Redis recently did not answer. */
export class RedisTimeoutError extends Error {
  override name = 'RedisTimeoutError';
}

export interface RedisDeadlineOptions {
  /** A call slower than this counts as Redis not answering; the caller takes its fallback. */
  timeoutMs: number;
  /** After a timeout, calls fail at once for this long instead of each waiting out its own timeout. */
  pauseMs: number;
}

/**
 * Bounds the Redis calls on a request's path. A Redis that refuses connections fails fast by itself
 * (the gateway's connection has no offline queue), but one that hangs (frozen, overloaded, a network
 * that drops packets) would hold every request until TCP gives up. Each call here gets `timeoutMs`;
 * after one times out, calls fail at once for `pauseMs` (one call then probes again), so a hanging Redis
 * costs a request at most one timeout, however many Redis calls its path makes. One per process, shared
 * by the limiter and the throttles.
 */
export class RedisDeadline {
  private pausedUntil = 0;

  constructor(
    private readonly options: RedisDeadlineOptions,
    private readonly onChange: (answering: boolean) => void = () => undefined,
  ) {}

  get timeoutMs(): number {
    return this.options.timeoutMs;
  }

  /** Runs `work` within the deadline; rejects with RedisTimeoutError when it is too slow or Redis is paused. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    const now = Date.now();
    if (now < this.pausedUntil) throw new RedisTimeoutError('Redis did not answer recently; not waiting for it');
    const probing = this.pausedUntil !== 0;
    // While one call probes, the others keep failing fast.
    if (probing) this.pausedUntil = now + this.options.pauseMs;
    const { timeoutMs } = this.options;
    try {
      // The call may still settle after the timeout; within() keeps its late failure handled.
      const value = await within(
        work(),
        timeoutMs,
        () => new RedisTimeoutError(`Redis did not answer within ${timeoutMs} ms`),
      );
      if (probing) {
        this.pausedUntil = 0;
        this.onChange(true);
      }
      return value;
    } catch (error) {
      if (error instanceof RedisTimeoutError) {
        if (this.pausedUntil === 0) this.onChange(false);
        this.pausedUntil = Date.now() + this.options.pauseMs;
      } else if (probing) {
        // Redis answered, with an error: it is not hanging.
        this.pausedUntil = 0;
        this.onChange(true);
      }
      throw error;
    }
  }
}
