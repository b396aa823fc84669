import type { Client } from 'openapi-fetch';
import { apiErrorOf } from './errors.js';
import type { RetryOptions } from './retrying-fetch.js';
import type { paths } from './schema.js';

/** Per call: the Idempotency-Key to send (default: a random UUID per POST, the same on every retry) and an abort signal. */
export interface CallOptions {
  idempotencyKey?: string;
  signal?: AbortSignal;
}

/** A bulk call: validate without writing (dryRun), or answer 202 at once and run in the background (respondAsync). */
export interface BulkOptions extends CallOptions {
  dryRun?: boolean;
  respondAsync?: boolean;
}

/** What every resource of the client sends through: the typed routes, and the raw pieces an upload needs. */
export interface Transport {
  api: Client<paths>;
  /** The integration API's base URL, without a trailing slash. */
  baseUrl: string;
  apiKey: string;
  send: (request: Request) => Promise<Response>;
  retry: RetryOptions;
}

type Pending<T> = Promise<{ data?: T; error?: unknown; response: Response }>;

/** The data of a success, or the typed error of anything else. */
export async function answer<T>(pending: Pending<T>): Promise<T> {
  const { data, error, response } = await pending;
  if (!response.ok) throw apiErrorOf(response, error);
  return data as T;
}

/** The init of a write: its Idempotency-Key when the caller chose one, and its signal. */
export const writeInit = (options: CallOptions = {}) => ({
  headers: options.idempotencyKey === undefined ? {} : { 'idempotency-key': options.idempotencyKey },
  signal: options.signal,
});

/**
 * The init of a bulk call: a write's, plus `Prefer: respond-async` and `?dryRun=true` when asked. A real run
 * sends no query at all, as a curl user would, so the same body with the same Idempotency-Key is one request
 * whichever of the two sent it.
 */
export const bulkInit = (options: BulkOptions = {}) => {
  const init = writeInit(options);
  return {
    ...init,
    headers: options.respondAsync ? { ...init.headers, prefer: 'respond-async' } : init.headers,
    ...(options.dryRun ? { params: { query: { dryRun: true } } } : {}),
  };
};
