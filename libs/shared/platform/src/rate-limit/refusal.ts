import type { RateLimiterRes } from 'rate-limiter-flexible';

/**
 * rate-limiter-flexible rejects with a RateLimiterRes when a limit is reached and with an Error when its
 * store fails. Checked by shape: under Jest's ESM loader the CommonJS class can exist twice, so
 * `instanceof` is not reliable.
 */
export function isRefusal(rejection: unknown): rejection is RateLimiterRes {
  return !(rejection instanceof Error) && typeof (rejection as RateLimiterRes | null)?.msBeforeNext === 'number';
}
