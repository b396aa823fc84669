/** What `within` rejects with when the time is up (unless the caller names its own error). */
export class TimeoutError extends Error {
  override readonly name = 'TimeoutError';
}

/**
 * `promise`'s outcome if it settles within `ms`, else a rejection with `onTimeout()` (a `TimeoutError` unless
 * said). The timer is cleared either way; a late failure of `promise` stays handled (the race holds it).
 */
export function within<T>(
  promise: Promise<T>,
  ms: number,
  onTimeout: () => Error = () => new TimeoutError(`no answer within ${ms} ms`),
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Waits for `promise` to settle, but no longer than `ms`: its value, or undefined when it failed or took
 * longer. A close must never hang a shutdown, and a detail must never hold up an answer.
 */
export function settleWithin<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  return within(promise, ms).catch(() => undefined);
}
