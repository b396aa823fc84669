import { ERROR_CATALOGUE, httpStatusOf, type ErrorCode } from './error-codes.js';

/**
 * The one error type the domain throws. `code` is a code of the catalogue (`error-codes.ts`): stable,
 * machine-readable, and the catalogue names its HTTP status, so a throw site says what went wrong, never how
 * HTTP answers it; `message` is safe to show to a client. Libraries never throw an HTTP framework's error,
 * only this.
 */
export interface ErrorDetail {
  path: string;
  message: string;
}

/** The codes whose catalogue status is `S`: what each shorthand below may be given. */
export type ErrorCodeOf<S extends number> = {
  [K in ErrorCode]: (typeof ERROR_CATALOGUE)[K]['status'] extends S ? K : never;
}[ErrorCode];

export class AppError extends Error {
  override name = 'AppError';
  /**
   * The catalogue's HTTP status of the code, copied for logs and specs; the HTTP edge reads the catalogue.
   * A plain property, not a getter: Express's body parser (http-errors) assigns `status` on an error its
   * verify step throws.
   */
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    /** Extra fields the answer carries (e.g. retryAfter on 429). */
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
    this.status = httpStatusOf(code);
  }

  static validation(message: string, details?: ErrorDetail[]): AppError {
    return new AppError('VALIDATION_FAILED', message, details);
  }

  static unauthorized(message = 'Unauthorized', code: ErrorCodeOf<401> = 'UNAUTHORIZED'): AppError {
    return new AppError(code, message);
  }

  static forbidden(message = 'Forbidden', code: ErrorCodeOf<403> = 'FORBIDDEN'): AppError {
    return new AppError(code, message);
  }

  static notFound(message: string, code: ErrorCodeOf<404> = 'NOT_FOUND'): AppError {
    return new AppError(code, message);
  }

  static conflict(code: ErrorCodeOf<409>, message: string): AppError {
    return new AppError(code, message);
  }

  static referenceNotFound(message: string): AppError {
    return new AppError('REFERENCE_NOT_FOUND', message);
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
