import type { Response } from 'express';
import { AppError, type ErrorCodeOf } from '@wms/platform';

/** A 429 in the plain shape with `retryAfter`, and the `Retry-After` header equal to it. */
export function tooManyRequests(res: Response, code: ErrorCodeOf<429>, message: string, retryAfter: number): AppError {
  res.setHeader('Retry-After', String(retryAfter));
  return new AppError(code, message, undefined, { retryAfter });
}
