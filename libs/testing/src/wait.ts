const POLL_MS = 25;

/**
 * The one way a test waits: polls until a condition holds, or throws naming what was awaited.
 *
 * - `waitFor(condition, timeoutMs?, what?)` waits for `condition()` to be true.
 * - `waitFor(probe, accept, timeoutMs?, what?)` waits for a value of `probe()` that `accept` takes, and
 *   answers it (e.g. the response whose job has completed); the error shows the last value seen.
 */
export function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs?: number, what?: string): Promise<void>;
export function waitFor<T>(
  probe: () => T | Promise<T>,
  accept: (value: T) => boolean,
  timeoutMs?: number,
  what?: string,
): Promise<T>;
export async function waitFor<T>(
  probe: () => T | Promise<T>,
  acceptOrTimeout?: ((value: T) => boolean) | number,
  timeoutOrWhat?: number | string,
  maybeWhat?: string,
): Promise<T | void> {
  const accept = typeof acceptOrTimeout === 'function' ? acceptOrTimeout : (value: T) => Boolean(value);
  const timeoutMs = (typeof acceptOrTimeout === 'number' ? acceptOrTimeout : (timeoutOrWhat as number)) ?? 15_000;
  const what = (typeof acceptOrTimeout === 'function' ? maybeWhat : (timeoutOrWhat as string)) ?? 'condition';
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (accept(value)) return typeof acceptOrTimeout === 'function' ? value : undefined;
    if (Date.now() > deadline) {
      const seen = typeof acceptOrTimeout === 'function' ? `; last value ${JSON.stringify(value)}` : '';
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${seen}`);
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
