import type Joi from 'joi';
import { isStorableText } from './joi.js';

/**
 * What joi would answer for an entry it accepts, or undefined: "not sure, ask joi". It never refuses
 * anything itself, so every error message still comes from joi.
 */
export type EntryCheck = (entry: unknown) => Record<string, unknown> | undefined;

/** The parts of joi's `describe()` output this compiler reads. */
interface Description {
  type?: string;
  flags?: Record<string, unknown>;
  rules?: { name: string; args?: Record<string, unknown>; [property: string]: unknown }[];
  allow?: unknown[];
  keys?: Record<string, Description>;
  preferences?: Record<string, unknown>;
  [property: string]: unknown;
}

const UNSURE = Symbol('unsure');
type FieldCheck = (value: unknown) => unknown;

/** Description properties that only document a schema. */
const DOCUMENTATION = new Set(['label', 'description']);
/** The preferences bulk entries are validated with: every bad path reported, unknown keys refused. */
export const ENTRY_PREFERENCES = {
  abortEarly: false,
  allowUnknown: false,
  stripUnknown: false,
  convert: true,
} as const;

export interface EntryCheckOptions {
  /**
   * An optional field without a default whose rules the compiler does not know (a guid, a pattern) does not
   * stop the compilation: the check then answers only for input that leaves that field out.
   */
  absentOnlyWhenUnknown?: boolean;
}

/**
 * Compiles a joi object schema into a straight-line check of the plain shapes bulk entries have: known
 * keys only, storable strings (trim, min, max), numbers (integer, min, max), booleans, allowed values, primitive
 * defaults. It follows joi's order (convert, then allowed values, then type and rules) and answers only
 * when it is sure; anything else (a number sent as a string, a bad value) goes to joi as before. A
 * schema using anything more (nested objects, patterns, e-mail, references) compiles to null and joi
 * validates every entry. Joi spends most of a bulk job's CPU on per-key machinery; this skips it for
 * the entries that are simply right.
 */
export function compileEntryCheck(schema: Joi.ObjectSchema, options: EntryCheckOptions = {}): EntryCheck | null {
  const description = schema.describe() as Description;
  if (
    !onlyHas(description, ['type', 'flags', 'keys', 'preferences']) ||
    description.type !== 'object' ||
    !description.keys
  )
    return null;
  if (!documentationOnly(description.flags) || !entryPreferences(description.preferences)) return null;

  const fields = new Map<string, FieldCheck>();
  for (const [key, child] of Object.entries(description.keys)) {
    const check = compileField(child) ?? (options.absentOnlyWhenUnknown ? absentOnly(child) : null);
    if (!check) return null;
    fields.set(key, check);
  }

  return (entry) => {
    if (typeof entry !== 'object' || entry === null || Object.getPrototypeOf(entry) !== Object.prototype)
      return undefined;
    const input = entry as Record<string, unknown>;
    for (const key in input) if (!fields.has(key)) return undefined;
    // Joi answers a shallow copy (made with Object.assign, as joi makes it) with converted values and defaults set.
    const output: Record<string, unknown> = Object.assign({}, input);
    for (const [key, check] of fields) {
      const given = input[key];
      const value = check(given);
      if (value === UNSURE) return undefined;
      if (!Object.is(value, given)) output[key] = value;
    }
    return output;
  };
}

function compileField(description: Description): FieldCheck | null {
  if (!onlyHas(description, ['type', 'flags', 'rules', 'allow'])) return null;
  const { presence, default: fallback, only, ...rest } = description.flags ?? {};
  if (!documentationOnly(rest)) return null;
  if (presence !== undefined && presence !== 'required' && presence !== 'optional') return null;
  if (fallback !== undefined && !isPrimitive(fallback)) return null;
  // Joi answers the allowed value it holds, not the one given: identical only for null and strings.
  const allow = description.allow ?? [];
  if (!allow.every((value) => value === null || (description.type === 'string' && typeof value === 'string')))
    return null;

  const typed = compileType(description.type, description.rules ?? [], new Set(allow), only === true);
  if (!typed) return null;
  return (value) => {
    if (value === undefined) return presence === 'required' ? UNSURE : fallback;
    return typed(value);
  };
}

/** A field joi leaves out when it is not given: sure only of its absence. */
function absentOnly(description: Description): FieldCheck | null {
  if (!onlyHas(description, ['type', 'flags', 'rules', 'allow'])) return null;
  const { presence, ...rest } = description.flags ?? {};
  if (!documentationOnly(rest) || (presence !== undefined && presence !== 'optional')) return null;
  return (value) => (value === undefined ? undefined : UNSURE);
}

function compileType(
  type: string | undefined,
  rules: NonNullable<Description['rules']>,
  allowed: Set<unknown>,
  only: boolean,
): FieldCheck | null {
  if (!rules.every((rule) => onlyHas(rule, ['name', 'args']))) return null;
  const limits = { min: -Infinity, max: Infinity };
  let trim = false;
  let integer = false;

  for (const rule of rules) {
    const args = rule.args ?? {};
    if ((rule.name === 'min' || rule.name === 'max') && onlyHas(args, ['limit']) && typeof args.limit === 'number')
      limits[rule.name] = args.limit;
    else if (type === 'string' && rule.name === 'trim' && args.enabled === true) trim = true;
    else if (type === 'number' && rule.name === 'integer') integer = true;
    else return null;
  }

  switch (type) {
    case 'string':
      return (value) => {
        if (typeof value !== 'string') return allowed.has(value) ? value : UNSURE;
        const converted = trim ? value.trim() : value;
        if (allowed.has(converted)) return converted;
        if (only || converted === '' || converted.length < limits.min || converted.length > limits.max) return UNSURE;
        // The service's joi refuses text PostgreSQL cannot store; joi writes that error.
        return isStorableText(converted) ? converted : UNSURE;
      };
    case 'number':
      return (value) => {
        if (typeof value !== 'number') return allowed.has(value) ? value : UNSURE;
        if (only || !Number.isFinite(value) || value > Number.MAX_SAFE_INTEGER || value < Number.MIN_SAFE_INTEGER)
          return UNSURE;
        const converted = value === 0 ? 0 : value; // joi answers 0 for -0
        if ((integer && !Number.isInteger(converted)) || converted < limits.min || converted > limits.max)
          return UNSURE;
        return converted;
      };
    case 'boolean':
      if (rules.length) return null;
      return (value) => {
        if (typeof value !== 'boolean') return allowed.has(value) ? value : UNSURE;
        return only ? UNSURE : value;
      };
    default:
      return null;
  }
}

function onlyHas(object: object, properties: string[]): boolean {
  return Object.keys(object).every((property) => properties.includes(property));
}

function documentationOnly(flags: Record<string, unknown> | undefined): boolean {
  return !flags || Object.keys(flags).every((flag) => DOCUMENTATION.has(flag));
}

/** The check is exact only under the preferences entries are validated with; a schema bound to others stays with joi. */
function entryPreferences(preferences: Record<string, unknown> | undefined): boolean {
  const expected: Record<string, unknown> = ENTRY_PREFERENCES;
  return (
    !!preferences &&
    onlyHas(preferences, Object.keys(expected)) &&
    Object.keys(expected).every((name) => preferences[name] === expected[name])
  );
}

function isPrimitive(value: unknown): boolean {
  return value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}
