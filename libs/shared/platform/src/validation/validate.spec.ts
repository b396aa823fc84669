import Joi from 'joi';
import { stockQuerySchema } from '@wms/warehouse';
import { AppError } from '../errors/index.js';
import { compileValidator, validate } from './validate.js';

/** What `validate` answers for a value: its result, or the error it throws. */
function outcome(run: () => unknown): unknown {
  try {
    return { value: run() };
  } catch (error) {
    return { error: error instanceof AppError ? { code: error.code, details: error.details } : String(error) };
  }
}

/** A query object as Express' query parser makes it: no prototype, values a string or an array of them. */
const query = (fields: Record<string, string | string[]>) => Object.assign(Object.create(null), fields) as object;

describe('a compiled validator', () => {
  const check = compileValidator(stockQuerySchema, 'Query validation failed');

  it.each([
    [{ sku: 'A-1' }],
    [{ sku: ' A-1 ', warehouseCode: 'MAIN' }],
    [{ sku: 'A-1', warehouseCode: 'MAIN', lotNo: 'L1' }],
    [{ sku: 'A-1', tenantId: '7c1f3a0e-8d7b-4c52-9a1e-2f4b6d8c0a11' }],
    [{ sku: 'A-1', tenantId: 'not-a-guid' }],
    [{ sku: '' }],
    [{ sku: 'x'.repeat(101) }],
    [{ sku: ['A-1', 'A-2'] }],
    [{ sku: 'A\u0000' }],
    [{ sku: 'A-1', extra: '1' }],
    [{ warehouseCode: 'MAIN' }],
    [{ sku: 'A-1', __proto__: 'x' }],
  ])('answers %j exactly as joi does', (fields) => {
    const value = query(fields);
    expect(outcome(() => check(value))).toEqual(
      outcome(() => validate(stockQuerySchema, value, 'Query validation failed')),
    );
  });

  it('refuses a missing value with the message of validate', () => {
    expect(outcome(() => check(undefined))).toEqual(
      outcome(() => validate(stockQuerySchema, undefined, 'Query validation failed')),
    );
  });

  it('answers a schema with patterns as validate does', () => {
    const schema = Joi.object({
      code: Joi.string()
        .pattern(/^[A-Z]+$/)
        .required(),
    });
    const validator = compileValidator(schema);
    expect(validator({ code: 'AB' })).toEqual({ code: 'AB' });
    expect(outcome(() => validator({ code: 'ab' }))).toEqual(outcome(() => validate(schema, { code: 'ab' })));
  });
});
