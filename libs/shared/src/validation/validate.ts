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
 * fields are refused, not silently dropped.
 */
export function validate<T>(schema: Joi.Schema<T>, value: unknown, message = 'Request validation failed'): T {
  const result = schema.validate(value, { abortEarly: false, allowUnknown: false, stripUnknown: false, convert: true });
  if (result.error) throw AppError.validation(message, toErrorDetails(result.error));
  return result.value as T;
}
