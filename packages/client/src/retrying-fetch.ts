import { delay } from './delay.js';

export interface RetryOptions {
  /** Further attempts after the first (default 3). */
  retries: number;
  /** The longest wait between two attempts, a Retry-After above it included (default 30 s). */
  maxDelayMs: number;
}

export const DEFAULT_RETRIES: RetryOptions = { retries: 3, maxDelayMs: 30_000 };

/** Answers that say "later": the rate limit (429) and an overloaded or draining service (503). */
const RETRIED_STATUSES = new Set([429, 503]);
const IDEMPOTENCY_KEY = 'idempotency-key';

/**
 * A random (version 4) UUID from Web Crypto: `randomUUID` where the runtime offers it (browsers offer it on
 * secure pages only), else the same from `getRandomValues`, which every page has.
 */
export function randomUuid(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * How long a Retry-After asks to wait (seconds or an HTTP date), or the exponential backoff with full jitter
 * when there is none, bounded either way.
 */
export function retryDelayMs(retryAfter: string | null, attempt: number, maxDelayMs: number): number {
  if (retryAfter !== null) {
    const seconds = Number(retryAfter);
    const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(retryAfter) - Date.now();
    if (Number.isFinite(ms)) return Math.min(Math.max(ms, 0), maxDelayMs);
  }
  return Math.min(Math.random() * 250 * 2 ** attempt, maxDelayMs);
}

/**
 * Sends a request, again on 429 and 503 (after their Retry-After) and on network errors, up to `retries`
 * more times. A POST gets an Idempotency-Key (a random UUID unless the caller set one) before the first
 * attempt, so every attempt carries the same key and the service writes once however many arrive.
 * `makeRequest` gives a fresh request per attempt (a body can be read once); `replayable: false` (a body
 * streamed from a source that cannot be read again) sends one attempt only.
 */
export async function sendWithRetries(
  makeRequest: (idempotencyKey: string | undefined) => Request,
  fetchImpl: (request: Request) => Promise<Response>,
  options: RetryOptions & { method: string; idempotencyKey?: string; replayable?: boolean },
): Promise<Response> {
  const idempotencyKey = options.method === 'POST' ? (options.idempotencyKey ?? randomUuid()) : undefined;
  const retries = options.replayable === false ? 0 : options.retries;
  for (let attempt = 0; ; attempt += 1) {
    const request = makeRequest(idempotencyKey);
    let response: Response;
    try {
      response = await fetchImpl(request);
    } catch (error) {
      if (attempt >= retries || request.signal.aborted) throw error;
      await delay(retryDelayMs(null, attempt, options.maxDelayMs), request.signal);
      continue;
    }
    if (!RETRIED_STATUSES.has(response.status) || attempt >= retries) return response;
    await response.body?.cancel();
    const wait = retryDelayMs(response.headers.get('retry-after'), attempt, options.maxDelayMs);
    await delay(wait, request.signal);
  }
}

/** A fetch for openapi-fetch that retries as above, each attempt a copy of the request it was given. */
export function retryingFetch(
  fetchImpl: (request: Request) => Promise<Response>,
  options: RetryOptions,
): (request: Request) => Promise<Response> {
  return (request) =>
    sendWithRetries(
      (key) => {
        const attempt = request.clone();
        if (key !== undefined) attempt.headers.set(IDEMPOTENCY_KEY, key);
        return attempt;
      },
      fetchImpl,
      { ...options, method: request.method, idempotencyKey: request.headers.get(IDEMPOTENCY_KEY) ?? undefined },
    );
}
