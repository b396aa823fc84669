import type { ErrorRequestHandler, RequestHandler, Response } from 'express';
import { AppError, isAppError, reasonPhrase, type Logger } from '@wms/shared';

/**
 * The integration API answers errors of its handlers in the seed's envelope; everything else (login,
 * admin, operations, and the API-key guard) answers { statusCode, message, error, requestId }.
 */
export type ErrorFormat = 'envelope' | 'plain';

export function useErrorFormat(res: Response, format: ErrorFormat): void {
  res.locals.errorFormat = format;
}

/** Maps what Express' JSON parser throws to our codes; anything unknown becomes an opaque 500. */
function toAppError(error: unknown): AppError {
  if (isAppError(error)) return error;
  const parserError = error as { type?: string; status?: number };
  if (parserError.type === 'entity.parse.failed') return new AppError(400, 'INVALID_JSON', 'Malformed JSON body');
  if (parserError.type === 'entity.too.large') return new AppError(413, 'PAYLOAD_TOO_LARGE', 'Request body exceeds 1 MB');
  if (parserError.type === 'encoding.unsupported' || parserError.type === 'charset.unsupported') {
    return new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Unsupported body encoding');
  }
  return new AppError(500, 'INTERNAL_ERROR', 'Internal server error');
}

export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error, req, res, next) => {
    if (res.headersSent) return next(error);
    const appError = toAppError(error);
    if (appError.status >= 500) logger.error({ err: error, requestId: req.requestId }, 'request failed');
    const body =
      res.locals.errorFormat === 'envelope'
        ? {
            status: 'error',
            code: appError.code,
            message: appError.message,
            ...(appError.details ? { details: appError.details } : {}),
            ...appError.extra,
            requestId: req.requestId,
          }
        : {
            statusCode: appError.status,
            message: appError.message,
            error: reasonPhrase(appError.status),
            ...(appError.details ? { details: appError.details } : {}),
            ...appError.extra,
            requestId: req.requestId,
          };
    res.status(appError.status).json(body);
  };
}

export const notFoundHandler: RequestHandler = (req, _res, next) => {
  next(AppError.notFound(`Cannot ${req.method} ${req.path}`));
};
