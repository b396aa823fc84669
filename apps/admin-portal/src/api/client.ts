/**
 * The one way the portal talks to the gateway: JSON over `/api/v1`, the session's access token as a bearer,
 * and the API's own error message carried to the page. An expired access token is renewed once and the
 * call repeated; a session that cannot be renewed ends (the page returns to sign-in).
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

type Query = Record<string, string | number | boolean | null | undefined>;

export interface RequestOptions {
  body?: unknown;
  query?: Query;
  /** Calls made before a session exists (sign-in, renewal) carry no bearer. */
  anonymous?: boolean;
  /** A body sent as it is (a file) with its own content type, instead of JSON. */
  file?: { body: Blob; type: string };
  /** The media type asked for, instead of JSON. */
  accept?: string;
}

export function withQuery(path: string, query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(name, String(value));
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

async function send(method: string, path: string, options: RequestOptions): Promise<Response> {
  const headers: Record<string, string> = { accept: options.accept ?? 'application/json' };
  const token = options.anonymous ? null : (tokens?.accessToken() ?? null);
  if (token) headers.authorization = `Bearer ${token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.file) headers['content-type'] = options.file.type;
  return fetch(`${API_BASE}${withQuery(path, options.query)}`, {
    method,
    headers,
    credentials: 'same-origin',
    body: options.file ? options.file.body : options.body === undefined ? undefined : JSON.stringify(options.body),
  });
}

async function errorOf(response: Response): Promise<ApiError> {
  const body = (await response.json().catch(() => null)) as {
    message?: string;
    details?: Array<{ path: string; message: string }>;
    code?: string;
  } | null;
  const message = body?.message ?? `The server answered ${response.status} ${response.statusText}`;
  return new ApiError(response.status, message, body?.details ?? [], body?.code);
}

/** A successful answer (2xx), after one renewal of an expired access token; anything else is thrown as ApiError. */
async function okResponse(method: string, path: string, options: RequestOptions): Promise<Response> {
  let response = await send(method, path, options);
  if (response.status === 401 && !options.anonymous && tokens && (await tokens.renew())) {
    response = await send(method, path, options);
  }
  if (!response.ok) throw await errorOf(response);
  return response;
}

export async function apiRequest<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const response = await okResponse(method, path, options);
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}

/** Sends a file as it is, with its content type; the answer is JSON. */
export async function apiUpload<T>(path: string, query: Query, body: Blob, type: string): Promise<T> {
  const response = await okResponse('POST', path, { query, file: { body, type } });
  return (await response.json()) as T;
}

/** A file the API answers (such as an errors file), as a Blob. */
export async function apiDownload(path: string, accept: string): Promise<Blob> {
  return (await okResponse('GET', path, { accept })).blob();
}

/** One page of a paged admin list: its items and the cursor of the next page (null on the last). */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** A paged admin list answers a bare array and names the next page in the `X-Next-Cursor` header. */
export async function apiPage<T>(path: string, query?: Query): Promise<Page<T>> {
  const response = await okResponse('GET', path, { query });
  return { items: (await response.json()) as T[], nextCursor: response.headers.get('x-next-cursor') };
}

/** The largest page an admin list answers. */
const MAX_PAGE = 500;

/**
 * Every entry of a paged admin list, following `X-Next-Cursor` page by page (for the lists a page shows
 * whole: users, API keys, subscriptions).
 */
export async function apiAll<T>(path: string, query: Query = {}): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | null = null;
  do {
    const page: Page<T> = await apiPage<T>(path, { ...query, limit: MAX_PAGE, ...(cursor ? { cursor } : {}) });
    items.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return items;
}

export const api = {
  get: <T>(path: string, query?: Query) => apiRequest<T>('GET', path, { query }),
  post: <T>(path: string, body?: unknown) => apiRequest<T>('POST', path, { body }),
  patch: <T>(path: string, body: unknown) => apiRequest<T>('PATCH', path, { body }),
  delete: <T>(path: string) => apiRequest<T>('DELETE', path),
};
