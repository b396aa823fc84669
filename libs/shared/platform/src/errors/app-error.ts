/**
 * The one error type the domain throws. `code` is stable and machine-readable; `status` is the HTTP
 * status an HTTP adapter answers with; `message` is safe to show to a client. Libraries never throw
 * an HTTP framework's error, only this.
 */
export interface ErrorDetail {
  path: string;
  message: string;
}

export class AppError extends Error {
  override name = 'AppError';

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: ErrorDetail[],
    /** Extra fields the answer carries (e.g. retryAfter on 429). */
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
  }

  static validation(message: string, details?: ErrorDetail[]): AppError {
    return new AppError(400, 'VALIDATION_FAILED', message, details);
  }

  static unauthorized(message = 'Unauthorized', code = 'UNAUTHORIZED'): AppError {
    return new AppError(401, code, message);
  }

  static forbidden(message = 'Forbidden', code = 'FORBIDDEN'): AppError {
    return new AppError(403, code, message);
  }

  static notFound(message: string, code = 'NOT_FOUND'): AppError {
    return new AppError(404, code, message);
  }

  static conflict(code: string, message: string): AppError {
    return new AppError(409, code, message);
  }

  static referenceNotFound(message: string): AppError {
    return new AppError(400, 'REFERENCE_NOT_FOUND', message);
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
