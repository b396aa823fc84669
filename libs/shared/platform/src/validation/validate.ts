import type Joi from 'joi';
import { AppError, type ErrorDetail } from '../errors/index.js';
import { compileCanonicalCheck } from './canonical.js';
import { VALIDATION_PREFERENCES } from './preferences.js';

export { VALIDATION_PREFERENCES };

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
  refuseMissingObject(schema, value, message);
  return valueOf(schema.validate(value, VALIDATION_PREFERENCES), message);
}

/**
 * `validate` against one schema, with the preferences bound to it once (joi merges options given per call
 * into the schema's own on every call): for the schemas of hot paths, such as the inquiries' queries. A
 * value the compiled check finds already canonical is answered as it is; joi decides everything else.
 */
export function compileValidator<T>(
  schema: Joi.ObjectSchema<T>,
  message = 'Request validation failed',
): (value: unknown) => T {
  const bound = schema.prefs(VALIDATION_PREFERENCES);
  const canonical = compileCanonicalCheck(schema);
  return (value) => {
    if (canonical(value)) return value as T;
    refuseMissingObject(schema, value, message);
    return valueOf(bound.validate(value), message);
  };
}

/**
 * A request without a body reaches here as undefined; an object is always required (routes that take no
 * body pass `{}` themselves), so no handler ever reads fields of nothing.
 */
function refuseMissingObject(schema: Joi.Schema, value: unknown, message: string): void {
  if (value === undefined && schema.type === 'object')
    throw AppError.validation(message, [{ path: '', message: 'a JSON body is required' }]);
}

function valueOf<T>(result: Joi.ValidationResult<T>, message: string): T {
  if (result.error) throw AppError.validation(message, toErrorDetails(result.error));
  return result.value;
}
