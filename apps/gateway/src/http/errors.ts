import type { ErrorRequestHandler, RequestHandler, Response } from 'express';
import {
  AppError,
  httpStatusOf,
  isAppError,
  isConnectionLoss,
  isValueOutOfRange,
  reasonPhrase,
  timedOutWait,
  type ErrorCode,
  type Logger,
} from '@wms/platform';
import { answeredAtDeadline } from './request-deadline.js';
import { requestIdOf } from './request-state.js';

/**
 * The integration API answers errors of its handlers in its envelope `{ status: 'error', code, message,
 * details?, requestId }`; everything else (login,
 * admin, operations, and the API-key guard) answers { statusCode, message, error, code, requestId }: `error`
 * is the HTTP reason phrase and `code` the machine-readable code, the same codes the envelope carries.
 */
export type ErrorFormat = 'envelope' | 'plain';

export function useErrorFormat(res: Response, format: ErrorFormat): void {
  res.locals.errorFormat = format;
}

/** Codes of the 4xx errors Express and its body parser raise themselves, by status. */
const FRAMEWORK_CODES: Record<number, ErrorCode> = {
  400: 'BAD_REQUEST',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
};

/** An error as it is answered: its `AppError` and the HTTP status, the catalogue's for its code. */
interface Refusal {
  error: AppError;
  status: number;
}

/**
 * The status is the catalogue's for the code, with one exception: what Express, its router and its body
 * parser raise themselves keeps their 4xx status (`BAD_REQUEST` is answered with the framework's 4xx).
 */
function refusalOf(error: unknown): Refusal {
  const appError = toAppError(error);
  const status = frameworkStatusOf(error);
  if (!isAppError(error) && appError.code === 'BAD_REQUEST' && status !== null) return { error: appError, status };
  return { error: appError, status: httpStatusOf(appError.code) };
}

/** The 4xx status an error of Express or its body parser carries; null for any other error. */
function frameworkStatusOf(error: unknown): number | null {
  const framework = error as { status?: unknown; statusCode?: unknown };
  const status = typeof framework.status === 'number' ? framework.status : framework.statusCode;
  return typeof status === 'number' && status >= 400 && status < 500 ? status : null;
}

/**
 * Maps what Express, its router and its JSON parser throw to our codes (a body that is not valid gzip, a
 * path that is not valid percent-encoding); anything else is an opaque 500. Their own messages may quote
 * the input, so a fixed message per kind is answered.
 */
function toAppError(error: unknown): AppError {
  if (isAppError(error)) return error;
  const framework = error as { type?: string };
  // The body parser wraps what its verify step throws (the depth check) and keeps the cause's fields.
  if (framework.type === 'entity.verify.failed' && isAppError((error as { cause?: unknown }).cause))
    return (error as { cause: AppError }).cause;
  if (framework.type === 'entity.parse.failed') return new AppError('INVALID_JSON', 'Malformed JSON body');
  if (framework.type === 'entity.too.large') return new AppError('PAYLOAD_TOO_LARGE', 'Request body exceeds 1 MB');
  if (framework.type === 'encoding.unsupported' || framework.type === 'charset.unsupported') {
    return new AppError('UNSUPPORTED_MEDIA_TYPE', 'Unsupported body encoding');
  }
  // PostgreSQL gave up waiting (lock_timeout, statement_timeout): the same request may pass once the
  // contention is gone; the session ended for idling in its transaction is a lost connection.
  const waited = timedOutWait(error);
  if (waited === 'lock')
    return new AppError('LOCK_TIMEOUT', 'A record this request changes is held by another change; retry the request');
  if (waited === 'statement')
    return new AppError('STATEMENT_TIMEOUT', 'The database took too long to answer; retry the request');
  // A request caught on a PostgreSQL connection that died: the pool replaces it, so a retry succeeds.
  if (isConnectionLoss(error))
    return new AppError('DATABASE_UNAVAILABLE', 'The database is not available right now; retry the request');
  // A quantity that would outgrow its column (numeric(18,4)): refused whole, nothing of it was stored.
  if (isValueOutOfRange(error))
    return new AppError('VALIDATION_FAILED', 'A quantity or amount is larger than the warehouse can store');
  const status = frameworkStatusOf(error);
  if (status !== null) return new AppError(FRAMEWORK_CODES[status] ?? 'BAD_REQUEST', frameworkMessage(error, status));
  return new AppError('INTERNAL_ERROR', 'Internal server error');
}

function frameworkMessage(error: unknown, status: number): string {
  if (error instanceof URIError || /decode param/i.test((error as Error).message ?? ''))
    return 'Malformed percent-encoding in the request path';
  if ((error as { type?: string }).type === 'request.aborted') return 'Request aborted';
  if (status === 400) return 'Malformed request body (its Content-Encoding or length does not match it)';
  return reasonPhrase(status);
}

export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error, req, res, next) => {
    // Answered 503 at its deadline: what its abandoned work says afterwards has nobody to go to.
    if (answeredAtDeadline(res)) return;
    if (res.headersSent) return next(error);
    const { error: appError, status } = refusalOf(error);
    // Read by the HTTP metrics, which count the API-key guard's refusals by their code.
    res.locals.errorCode = appError.code;
    if (status >= 500) logger.error({ err: error, requestId: requestIdOf(req) }, 'request failed');
    const body =
      res.locals.errorFormat === 'envelope'
        ? {
            status: 'error',
            code: appError.code,
            message: appError.message,
            ...(appError.details ? { details: appError.details } : {}),
            ...appError.extra,
            requestId: requestIdOf(req),
          }
        : {
            statusCode: status,
            message: appError.message,
            error: reasonPhrase(status),
            code: appError.code,
            ...(appError.details ? { details: appError.details } : {}),
            ...appError.extra,
            requestId: requestIdOf(req),
          };
    // Every 503 is a dependency that is away for now (the database, the ingest queue): worth a retry soon.
    if (status === 503) res.setHeader('Retry-After', '1');
    res.status(status).json(body);
  };
}

export const notFoundHandler: RequestHandler = (req, _res, next) => {
  next(AppError.notFound(`Cannot ${req.method} ${req.path}`));
};
