/** One field of a refused request, as the service names it. */
export interface WmsErrorDetail {
  path?: string;
  message?: string;
}

/**
 * An answer of the service that is not a success, after the client's retries: the status, the message, the
 * request id to quote to the service's operators, and the error code and details when the answer had them.
 */
export class WmsApiError extends Error {
  override readonly name = 'WmsApiError';
  readonly statusCode: number;
  readonly requestId: string | undefined;
  /** The error code (VALIDATION_FAILED, NOT_FOUND, INVALID_API_KEY, RATE_LIMITED, …); absent when the answer had none. */
  readonly code: string | undefined;
  readonly details: WmsErrorDetail[] | undefined;
  /** The answer's body as received (parsed JSON, or text). */
  readonly body: unknown;

  constructor(input: {
    statusCode: number;
    message: string;
    requestId?: string;
    code?: string;
    details?: WmsErrorDetail[];
    body?: unknown;
  }) {
    super(input.message);
    this.statusCode = input.statusCode;
    this.requestId = input.requestId;
    this.code = input.code;
    this.details = input.details;
    this.body = input.body;
  }
}

/** A webhook whose signature, timestamp or body did not verify with any of the secrets given. */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
}

/** jobs.wait gave up before the job ended; the job itself goes on. */
export class JobWaitTimeoutError extends Error {
  override readonly name = 'JobWaitTimeoutError';

  constructor(
    readonly jobId: string,
    readonly lastState: string | undefined,
  ) {
    super(`job ${jobId} did not end in time (last state: ${lastState ?? 'unknown'})`);
  }
}

const stringOf = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/**
 * The error of a failed answer. The integration API answers `{ status: "error", code, message, details?,
 * requestId }`; its key guard (401, 403, 429) answers `{ statusCode, message, error, code, requestId }`.
 */
export function apiErrorOf(response: Response, body: unknown): WmsApiError {
  const fields: Record<string, unknown> = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  const text = typeof body === 'string' && body.length > 0 ? body.slice(0, 500) : undefined;
  return new WmsApiError({
    statusCode: response.status,
    message: stringOf(fields.message) ?? text ?? (response.statusText || `HTTP ${response.status}`),
    requestId: stringOf(fields.requestId) ?? response.headers.get('x-request-id') ?? undefined,
    code: stringOf(fields.code),
    details: Array.isArray(fields.details) ? (fields.details as WmsErrorDetail[]) : undefined,
    body,
  });
}

/** Reads a failed answer's body (JSON when it is JSON) and makes its error. */
export async function apiErrorFrom(response: Response): Promise<WmsApiError> {
  const text = await response.text().catch(() => '');
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: the text itself is the body
  }
  return apiErrorOf(response, body);
}
