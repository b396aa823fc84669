/** A small fetch wrapper for tests: JSON in, parsed JSON and headers out. */
/**
 * A parsed JSON answer as a test reads it: by path (`body.data[0].sku`), as a list (`body.data.map(...)`),
 * with the assertion checking the leaf. A test that needs a leaf as a string or number converts it or
 * names the answer's shape: `request<{ accessToken: string }>(...)`.
 */
export type JsonNode = ReadonlyArray<JsonNode> & JsonRecord;
export interface JsonRecord {
  readonly [key: string]: JsonNode;
}

export interface HttpResponse<T = JsonNode> {
  status: number;
  headers: Headers;
  body: T;
}

export async function request<T = JsonNode>(
  baseUrl: string,
  method: string,
  path: string,
  options: { body?: unknown; rawBody?: string; headers?: Record<string, string>; token?: string } = {},
): Promise<HttpResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined;
  if (options.rawBody !== undefined) {
    body = options.rawBody;
    headers['content-type'] ??= 'application/json';
  } else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(`${baseUrl}${path}`, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // Not JSON: hand the text back as it is.
  }
  return { status: response.status, headers: response.headers, body: parsed as T };
}

/** The integration API's answer when a bulk request is taken in the background (202). */
export interface AcceptedJobAnswer {
  status: 'accepted';
  jobId: string;
  statusUrl: string;
  requestId: string;
}

/** A bulk job as `GET …/jobs/:jobId` answers it; `data` is absent on an error answer. */
export interface JobStateAnswer {
  status: string;
  /** `requestId` (and `traceId`) name the bulk call that created the job. */
  data?: { jobId: string; state: string; result: JsonNode | null; requestId?: string; traceId?: string };
  requestId: string;
}

/** A session as login and refresh answer it. */
export interface SessionAnswer {
  accessToken: string;
  refreshToken: string;
}
