import BaseJoi from 'joi';

/**
 * Text PostgreSQL can store: no NUL character (text and jsonb refuse it) and well-formed UTF-16 (a lone
 * surrogate has no UTF-8 form, so the driver or jsonb refuses it). Every string of every body passes
 * this before it can reach a statement.
 */
export function isStorableText(value: string): boolean {
  return !value.includes('\u0000') && (value as string & { isWellFormed(): boolean }).isWellFormed();
}

/**
 * Keys JSON.parse keeps as own properties but that name prototype machinery. Joi copies objects in a
 * way that drops `__proto__` silently, so these are refused before joi looks at the keys, whatever the
 * object schema allows.
 */
const PROTOTYPE_KEYS = ['__proto__', 'constructor'] as const;

/**
 * The joi every schema of the service is built with: `Joi.string()` refuses text PostgreSQL cannot store
 * and `Joi.object()` refuses prototype keys like any unknown field, so no route or service has to
 * remember either rule. Descriptions are unchanged (the OpenAPI document reads them).
 */
export const Joi: typeof BaseJoi = BaseJoi.extend(
  {
    type: 'string',
    base: BaseJoi.string(),
    messages: { 'string.storable': '{{#label}} must not contain NUL characters or invalid UTF-16' },
    validate(value: unknown, helpers) {
      if (typeof value === 'string' && !isStorableText(value))
        return { value, errors: [helpers.error('string.storable')] };
      return undefined;
    },
  },
  {
    type: 'object',
    base: BaseJoi.object(),
    prepare(value: unknown, helpers) {
      if (typeof value !== 'object' || value === null) return undefined;
      const key = PROTOTYPE_KEYS.find((name) => Object.prototype.hasOwnProperty.call(value, name));
      if (key === undefined) return undefined;
      const state = helpers.state as Required<typeof helpers.state>;
      // Reported as joi reports an unknown key: at the key's path, labelled with its name.
      const local = state.localize([...state.path, key], [value, ...state.ancestors]);
      return {
        value,
        errors: [helpers.error('object.unknown', { child: key, label: key, key, value: undefined }, local)],
      };
    },
  },
);

/** The schema types, so `Joi.ObjectSchema` reads as it does with joi's own default export. */
/* eslint-disable @typescript-eslint/no-namespace, @typescript-eslint/no-explicit-any -- joi's own defaults */
export declare namespace Joi {
  type Schema<T = any> = BaseJoi.Schema<T>;
  type ObjectSchema<T = any> = BaseJoi.ObjectSchema<T>;
  type StringSchema<T = string> = BaseJoi.StringSchema<T>;
  type NumberSchema<T = number> = BaseJoi.NumberSchema<T>;
  type BooleanSchema<T = boolean> = BaseJoi.BooleanSchema<T>;
  type DateSchema<T = Date> = BaseJoi.DateSchema<T>;
  type Description = BaseJoi.Description;
  type CustomHelpers<T = any> = BaseJoi.CustomHelpers<T>;
  type ErrorReport = BaseJoi.ErrorReport;
  type ValidationError = BaseJoi.ValidationError;
}
/* eslint-enable @typescript-eslint/no-namespace, @typescript-eslint/no-explicit-any */
