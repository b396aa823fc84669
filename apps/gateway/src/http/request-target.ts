import type { RequestHandler } from 'express';
import { AppError } from '@wms/platform';

/**
 * A NUL character in the path or query (`%00`) can never name anything PostgreSQL stores, and path
 * parameters reach statements without a joi schema, so it is refused for every route here.
 */
export const refuseNulInTarget: RequestHandler = (req, _res, next) => {
  if (/%00/i.test(req.originalUrl) || req.originalUrl.includes('\u0000')) {
    throw AppError.validation('Request URL must not contain a NUL character (%00)');
  }
  next();
};
