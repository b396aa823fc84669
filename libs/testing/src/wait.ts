const POLL_MS = 25;

/** How long to wait, what for (named in the error), and how often to look (25 ms unless said). */
export interface WaitOptions {
  timeoutMs?: number;
  what?: string;
  intervalMs?: number;
}

/**
 * The one way a test waits: polls until a condition holds, or throws naming what was awaited.
 *
 * - `waitFor(condition, timeoutMs?, what?)` waits for `condition()` to be true.
 * - `waitFor(probe, accept, timeoutMs?, what?)` waits for a value of `probe()` that `accept` takes, and
 *   answers it (e.g. the response whose job has completed); the error shows the last value seen.
 * - `waitFor(probe, accept, { timeoutMs, what, intervalMs })` the same, looking every `intervalMs` (a
 *   client retrying a call paces itself so).
 */
export function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs?: number, what?: string): Promise<void>;
export function waitFor<T>(
  probe: () => T | Promise<T>,
  accept: (value: T) => boolean,
  timeoutMs?: number,
  what?: string,
): Promise<T>;
export function waitFor<T, Accepted extends T>(
  probe: () => T | Promise<T>,
  accept: (value: T) => value is Accepted,
  options: WaitOptions,
): Promise<Accepted>;
export function waitFor<T>(
  probe: () => T | Promise<T>,
  accept: (value: T) => boolean,
  options: WaitOptions,
): Promise<T>;
export async function waitFor<T>(
  probe: () => T | Promise<T>,
  acceptOrTimeout?: ((value: T) => boolean) | number,
  timeoutOrOptions?: number | string | WaitOptions,
  maybeWhat?: string,
): Promise<T | void> {
  const probing = typeof acceptOrTimeout === 'function';
  const accept = probing ? acceptOrTimeout : (value: T) => Boolean(value);
  const options: WaitOptions =
    typeof timeoutOrOptions === 'object'
      ? timeoutOrOptions
      : probing
        ? { timeoutMs: timeoutOrOptions as number | undefined, what: maybeWhat }
        : { timeoutMs: acceptOrTimeout as number | undefined, what: timeoutOrOptions as string | undefined };
  const timeoutMs = options.timeoutMs ?? 15_000;
  const what = options.what ?? 'condition';
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (accept(value)) return probing ? value : undefined;
    if (Date.now() > deadline) {
      const seen = probing ? `; last value ${JSON.stringify(value)}` : '';
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${seen}`);
    }
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? POLL_MS));
  }
}

/** The most of `times` (ms) inside any window of `windowMs`: a rate read from recorded timestamps. */
export function busiestWindow(times: number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let start = 0, end = 0; start < sorted.length; start += 1) {
    while (end < sorted.length && sorted[end]! < sorted[start]! + windowMs) end += 1;
    most = Math.max(most, end - start);
  }
  return most;
}
