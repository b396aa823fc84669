import { QUANTITY_FIELDS, toDecimalString } from './changes/quantities-as-decimal-strings.js';

type Reviver = (this: unknown, key: string, value: unknown, context?: { source?: string }) => unknown;

/**
 * Parses JSON text (a stored event's data, a JSON answer PostgreSQL built) keeping each quantity exactly:
 * a quantity field's number is taken from its source text as a four-place decimal string, never through a
 * float (JSON.parse source text access, in Node since 21).
 */
export function parseWithExactQuantities<T = unknown>(text: string): T {
  const reviver: Reviver = (key, value, context) =>
    QUANTITY_FIELDS.has(key) && typeof value === 'number' && context?.source !== undefined
      ? toDecimalString(context.source)
      : value;
  return JSON.parse(text, reviver as Parameters<typeof JSON.parse>[1]) as T;
}
