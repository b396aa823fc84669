import type Joi from 'joi';
import { AppError, type ErrorDetail } from '../errors/index.js';

export function toErrorDetails(error: Joi.ValidationError): ErrorDetail[] {
  return error.details.map((detail) => ({
    path: detail.path.join('.'),
    message: detail.message.replace(/"/g, ''),
  }));
}

/**
 * Validates and converts `value`; every failing path is reported (not only the first) and unknown
 * fields are refused, not silently dropped. A missing object (no body) is refused.
 */
export function validate<T>(schema: Joi.Schema<T>, value: unknown, message = 'Request validation failed'): T {
  // A request without a body reaches here as undefined; an object is always required (routes that take
  // no body pass `{}` themselves), so no handler ever reads fields of nothing.
  if (value === undefined && schema.type === 'object')
    throw AppError.validation(message, [{ path: '', message: 'a JSON body is required' }]);
  const result = schema.validate(value, { abortEarly: false, allowUnknown: false, stripUnknown: false, convert: true });
  if (result.error) throw AppError.validation(message, toErrorDetails(result.error));
  return result.value as T;
}
