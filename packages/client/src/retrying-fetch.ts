import { delay } from './delay.js';

export interface RetryOptions {
  /** Further attempts after the first (default 3). */
  retries: number;
  /** The longest wait between two attempts, a Retry-After above it included (default 30 s). */
  maxDelayMs: number;
}

export const DEFAULT_RETRIES: RetryOptions = { retries: 3, maxDelayMs: 30_000 };

/**
 * How long one attempt may take, its answer's body read included: above the service's default bulk wait
 * (30 s), after which a bulk call answers 202 with a job, so a bulk call is not abandoned just before its answer.
 */
export const DEFAULT_TIMEOUT_MS = 60_000;

/** Answers that say "later": the rate limit (429) and an overloaded or draining service (503). */
const RETRIED_STATUSES = new Set([429, 503]);
const IDEMPOTENCY_KEY = 'idempotency-key';
/** Methods that change nothing, so an attempt may be repeated whatever became of the last one. */
const SAFE_METHODS = new Set(['GET', 'HEAD']);

/**
 * A request that may be sent again: one that changes nothing, or a POST with an Idempotency-Key, which the
 * service writes once however many attempts arrive. Anything else (DELETE, or a body read once) is sent once.
 */
function repeatable(method: string, idempotencyKey: string | undefined): boolean {
  return SAFE_METHODS.has(method) || (method === 'POST' && idempotencyKey !== undefined);
}

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

/** What one call is sent with: the retries, each attempt's timeout, and what makes it repeatable. */
export interface SendOptions extends RetryOptions {
  method: string;
  /** Each attempt's bound in milliseconds (DEFAULT_TIMEOUT_MS). */
  timeoutMs: number;
  idempotencyKey?: string;
  /** The caller's own signal: its abort ends the call at once, with no further attempt. */
  signal?: AbortSignal | null;
  /** False when the body cannot be read again (a stream): one attempt only. */
  replayable?: boolean;
}

/**
 * Sends a request, again on 429 and 503 (after their Retry-After), on network errors and on an attempt that
 * timed out, up to `retries` more times, when it is repeatable (a GET, or a POST with its Idempotency-Key). A
 * POST gets an Idempotency-Key (a random UUID unless the caller set one) before the first attempt, so every
 * attempt carries the same key and the service writes once however many arrive. Every attempt has its own
 * `timeoutMs` (AbortSignal.timeout), so a call that hangs ends: past its last attempt with the platform's
 * `TimeoutError`. `makeRequest` gives a fresh request per attempt (a body can be read once) with the signal
 * it must carry.
 */
export async function sendWithRetries(
  makeRequest: (idempotencyKey: string | undefined, signal: AbortSignal) => Request,
  fetchImpl: (request: Request) => Promise<Response>,
  options: SendOptions,
): Promise<Response> {
  const idempotencyKey = options.method === 'POST' ? (options.idempotencyKey ?? randomUuid()) : undefined;
  const retries = options.replayable === false || !repeatable(options.method, idempotencyKey) ? 0 : options.retries;
  const caller = options.signal ?? undefined;
  for (let attempt = 0; ; attempt += 1) {
    const timeout = AbortSignal.timeout(options.timeoutMs);
    const signal = caller ? AbortSignal.any([caller, timeout]) : timeout;
    let response: Response;
    try {
      response = await fetchImpl(makeRequest(idempotencyKey, signal));
    } catch (error) {
      if (attempt >= retries || caller?.aborted) throw error;
      await delay(retryDelayMs(null, attempt, options.maxDelayMs), caller);
      continue;
    }
    if (!RETRIED_STATUSES.has(response.status) || attempt >= retries) return response;
    await response.body?.cancel();
    const wait = retryDelayMs(response.headers.get('retry-after'), attempt, options.maxDelayMs);
    await delay(wait, caller);
  }
}

/** A fetch for openapi-fetch that sends as above, each attempt a copy of the request it was given. */
export function retryingFetch(
  fetchImpl: (request: Request) => Promise<Response>,
  options: RetryOptions & { timeoutMs: number },
): (request: Request) => Promise<Response> {
  return (request) =>
    sendWithRetries(
      (key, signal) => {
        const attempt = new Request(request.clone(), { signal });
        if (key !== undefined) attempt.headers.set(IDEMPOTENCY_KEY, key);
        return attempt;
      },
      fetchImpl,
      {
        ...options,
        method: request.method,
        idempotencyKey: request.headers.get(IDEMPOTENCY_KEY) ?? undefined,
        signal: request.signal,
      },
    );
}
