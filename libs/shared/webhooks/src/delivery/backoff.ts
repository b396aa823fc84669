/** Delivery backoff: attempt n waits about base·2^(n-1), ±20 % jitter, at least Retry-After, at most 6 h. */
export const MAX_BACKOFF_MS = 6 * 3_600_000;

export function backoffDelay(
  attemptNo: number,
  baseMs: number,
  retryAfterMs?: number,
  random: () => number = Math.random,
): number {
  const exponential = Math.min(MAX_BACKOFF_MS, baseMs * 2 ** Math.max(0, attemptNo - 1));
  const jittered = exponential * (0.8 + 0.4 * random());
  return Math.round(Math.min(MAX_BACKOFF_MS, Math.max(jittered, retryAfterMs ?? 0)));
}

/** `Retry-After` as delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const header = Array.isArray(value) ? value[0] : value;
  if (!header) return undefined;
  if (/^\s*\d+\s*$/.test(header)) return Math.min(MAX_BACKOFF_MS, Number(header) * 1000);
  const date = Date.parse(header);
  if (Number.isNaN(date)) return undefined;
  return Math.min(MAX_BACKOFF_MS, Math.max(0, date - now));
}
