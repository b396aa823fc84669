import express, { type Request, type RequestHandler } from 'express';
import { AppError, MAX_JSON_DEPTH, exceedsJsonDepth } from '@wms/platform';
import { setRawBody } from './request-state.js';

/** A request body is at most 1 MB; a larger one is refused with 413 before it is parsed. */
export const BODY_LIMIT = '1mb';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/**
 * The JSON body parser of every route: at most 1 MB, at most MAX_JSON_DEPTH levels deep (400 before it is
 * parsed), its bytes kept for the idempotency fingerprint. A body that is not JSON is a 415, so a form or
 * text body never reaches a handler as "no body"; a missing body reaches it as undefined and `validate`
 * answers 400 where one is required.
 */
export function parseJsonBody(): RequestHandler[] {
  const parse = express.json({
    limit: BODY_LIMIT,
    verify: (req, _res, buffer) => {
      if (exceedsJsonDepth(buffer)) {
        throw AppError.validation(`Request body is nested deeper than ${MAX_JSON_DEPTH} levels`);
      }
      setRawBody(req, buffer);
    },
  });
  const requireJson: RequestHandler = (req, _res, next) => {
    if (req.body === undefined && BODY_METHODS.has(req.method) && hasContent(req)) {
      throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Request body must be JSON (Content-Type: application/json)');
    }
    next();
  };
  return [parse, requireJson];
}

function hasContent(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}
