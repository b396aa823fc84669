import type Joi from 'joi';
import { AppError, type ErrorDetail } from '../errors/index.js';
import { ENTRY_PREFERENCES, compileEntryCheck } from './entry-check.js';

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

/**
 * `validate` against one object schema for a hot path (the inquiries' queries): a plainly right value is
 * answered by the check compiled from the schema (see compileEntryCheck) without joi's per-key machinery;
 * anything else, every error included, goes to joi as before. Fields the check cannot judge are answered
 * by it only when absent. A query object (null prototype) is checked as a plain copy of itself.
 */
export function compileValidator<T>(
  schema: Joi.ObjectSchema<T>,
  message = 'Request validation failed',
): (value: unknown) => T {
  const check = compileEntryCheck(schema.prefs(ENTRY_PREFERENCES), { absentOnlyWhenUnknown: true });
  if (!check) return (value) => validate(schema, value, message);
  return (value) => {
    const plain = typeof value === 'object' && value !== null ? Object.assign({}, value) : value;
    return (check(plain) as T | undefined) ?? validate(schema, value, message);
  };
}
