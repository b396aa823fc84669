import createClient from 'openapi-fetch';
import type { paths } from './schema';

/**
 * The one way the portal talks to the gateway: `openapi-fetch` over the admin API's generated types
 * (./schema.ts), so a path, its parameters, its body and its answer are checked against the API's document.
 * The session's access token goes as a bearer; an expired one is renewed once and the call repeated; a
 * session that cannot be renewed ends (the page returns to sign-in). An error answer is thrown as ApiError
 * with the API's own message.
 */
export const API_BASE = '/api/v1';

/** An error answer of the API: its status and message as the API wrote them, and field details when given. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details: Array<{ path: string; message: string }> = [],
    readonly code?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface TokenSource {
  /** The current access token, or null when signed out. */
  accessToken(): string | null;
  /** Renews the access token; resolves false when the session is over. */
  renew(): Promise<boolean>;
}

let tokens: TokenSource | null = null;

export function useTokenSource(source: TokenSource): void {
  tokens = source;
}

type Query = Record<string, unknown>;

/** Leaves out what is not set (undefined, null, empty), as a form's empty filter means "any". */
export function queryString(query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(name, String(value));
  }
  return params.toString();
}

function withBearer(request: Request): Request {
  const token = tokens?.accessToken() ?? null;
  if (token) request.headers.set('authorization', `Bearer ${token}`);
  return request;
}

/** The session's fetch: a bearer on each call, and one renewal of an expired access token. */
async function sessionFetch(request: Request): Promise<Response> {
  const again = request.clone();
  const response = await fetch(withBearer(request));
  if (response.status !== 401 || !tokens || !(await tokens.renew())) return response;
  return fetch(withBearer(again));
}

const options = {
  baseUrl: API_BASE,
  querySerializer: queryString,
  headers: { accept: 'application/json' },
  credentials: 'same-origin' as const,
};

/** Calls of a signed-in page. */
export const http = createClient<paths>({ ...options, fetch: sessionFetch });
/** Calls made before a session exists (sign-in, renewal, sign-out): no bearer, no renewal. */
export const anonymousHttp = createClient<paths>({ ...options, fetch: (request) => fetch(request) });

interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

function errorOf(response: Response, body: unknown): ApiError {
  const answer = (typeof body === 'object' && body !== null ? body : {}) as {
    message?: string;
    details?: Array<{ path: string; message: string }>;
    code?: string;
  };
  const message = answer.message ?? `The server answered ${response.status} ${response.statusText}`;
  return new ApiError(response.status, message, answer.details ?? [], answer.code);
}

/** The body of a successful answer (2xx; undefined for 204); anything else is thrown as ApiError. */
export async function ok<T>(call: Promise<Answer<T>>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) throw errorOf(response, error);
  return data as T;
}

/** One page of a paged admin list: its items and the cursor of the next page (null on the last). */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** A paged admin list answers a bare array and names the next page in the `X-Next-Cursor` header. */
export async function okPage<T>(call: Promise<Answer<T[]>>): Promise<Page<T>> {
  const { data, error, response } = await call;
  if (!response.ok) throw errorOf(response, error);
  return { items: data ?? [], nextCursor: response.headers.get('x-next-cursor') };
}

/** The largest page an admin list answers. */
export const MAX_PAGE = 500;

/**
 * Every entry of a paged admin list, following `X-Next-Cursor` page by page (for the lists a page shows
 * whole: users, API keys, subscriptions).
 */
export async function allPages<T>(page: (cursor: string | undefined) => Promise<Page<T>>): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | null = null;
  do {
    const next: Page<T> = await page(cursor ?? undefined);
    items.push(...next.items);
    cursor = next.nextCursor;
  } while (cursor);
  return items;
}
