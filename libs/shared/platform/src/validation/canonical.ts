import { createRequire } from 'node:module';
import { isDeepStrictEqual } from 'node:util';
import type { Ajv as AjvClass, AnySchemaObject } from 'ajv';
import type Joi from 'joi';
import { joiToJsonSchema, type JsonSchema } from '../openapi/index.js';
import { Joi as ServiceJoi, isStorableText } from './joi.js';
import { VALIDATION_PREFERENCES } from './preferences.js';

/**
 * A check compiled by ajv that answers true only for a value joi accepts unchanged: valid, and already in
 * the form joi would answer (nothing to trim, case-convert, default, convert or strip). Anything it does
 * not answer true for goes to joi, which decides and explains (ADR 0191).
 */
export type CanonicalCheck = (value: unknown) => boolean;

/** What a string must already be for joi to answer it unchanged (its own rules ajv does not know). */
interface StringForm {
  trim?: boolean;
  case?: 'upper' | 'lower';
  min?: number;
  max?: number;
  length?: number;
}

/**
 * The sub-schemas checked by joi itself, unchanged (`joiExact`): where a rule has no exact JSON Schema form
 * (a custom rule, an e-mail address, a unique key). Each is validated as its parent would, with the
 * service's preferences under its own.
 */
const exactSchemas: Joi.ObjectSchema[] = [];

function exactValue(index: number, value: unknown): boolean {
  const result = exactSchemas[index]!.validate({ value });
  return !result.error && isDeepStrictEqual((result.value as { value: unknown }).value, value);
}

let ajv: AjvClass | undefined;

/**
 * The ajv instance of every canonical check, made at the first compile: a process that compiles none (a
 * webhook worker) neither loads ajv nor builds it. Formats are not ajv's to judge: a node with one (a guid, an
 * e-mail address, a date) has a joi rule that joi checks itself (`joiExact`).
 */
function ajvInstance(): AjvClass {
  if (ajv) return ajv;
  // ajv is CommonJS whose default export is the class; its type declarations describe the ES module form.
  const Ajv: typeof AjvClass = createRequire(import.meta.url)('ajv');
  const made = new Ajv({
    allErrors: false,
    strict: false,
    allowUnionTypes: true,
    validateSchema: false,
    validateFormats: false,
  });
  made.addKeyword({
    keyword: 'joiString',
    schemaType: 'object',
    errors: false,
    validate: (form: StringForm, data: unknown) => {
      if (typeof data !== 'string') return true;
      if (!isStorableText(data)) return false;
      if (form.trim && data.trim() !== data) return false;
      if (form.case === 'upper' && data.toLocaleUpperCase() !== data) return false;
      if (form.case === 'lower' && data.toLocaleLowerCase() !== data) return false;
      // joi counts UTF-16 code units; ajv's own length keywords count code points.
      if (form.min !== undefined && data.length < form.min) return false;
      if (form.max !== undefined && data.length > form.max) return false;
      return form.length === undefined || data.length === form.length;
    },
  });
  made.addKeyword({
    keyword: 'joiNumber',
    schemaType: 'boolean',
    errors: false,
    // joi refuses numbers past the safe integers (`number.unsafe`) and answers -0 as 0.
    validate: (_unused: boolean, data: unknown) =>
      typeof data !== 'number' ||
      (Number.isFinite(data) && Math.abs(data) <= Number.MAX_SAFE_INTEGER && !Object.is(data, -0)),
  });
  made.addKeyword({
    keyword: 'joiExact',
    schemaType: 'number',
    errors: false,
    validate: (index: number, data: unknown) => exactValue(index, data),
  });
  ajv = made;
  return made;
}

const STRING_RULES = new Set(['trim', 'case', 'min', 'max', 'length']);
const NUMBER_RULES = new Set(['integer', 'min', 'max', 'greater', 'less']);
const ARRAY_RULES = new Set(['min', 'max', 'length', 'items']);
/** Flags that do not change what joi accepts or answers. */
const PLAIN_FLAGS = new Set(['presence', 'description', 'label', 'only', 'default', 'error']);

/** The parts of joi's `describe()` read here. */
interface Description {
  type: string;
  flags?: Record<string, unknown>;
  rules?: Array<{ name: string; args?: Record<string, unknown> }>;
  allow?: unknown[];
  keys?: Record<string, Description>;
  items?: Joi.Description[];
  ordered?: Joi.Description[];
}

function describe(schema: Joi.Schema): Description {
  return schema.describe() as Description;
}

/** The sub-schema joi itself checks, unchanged, where the JSON Schema cannot say enough. */
function exactly(json: JsonSchema, schema: Joi.Schema): JsonSchema {
  exactSchemas.push(ServiceJoi.object({ value: schema }).prefs(VALIDATION_PREFERENCES));
  return { ...json, joiExact: exactSchemas.length - 1 };
}

/** What a description may hold beside flags and rules (no renames, patterns, dependencies, invalid values…). */
const PLAIN_PARTS = new Set(['type', 'flags', 'rules', 'allow', 'keys', 'items', 'metas', 'notes', 'tags', 'examples']);

/** Every rule ajv knows exactly or is told about below; no flag that converts, no preference of its own. */
function plain(description: Description, known: Set<string>): boolean {
  if (Object.keys(description).some((part) => !PLAIN_PARTS.has(part))) return false;
  if (Object.keys(description.flags ?? {}).some((flag) => !PLAIN_FLAGS.has(flag))) return false;
  return (description.rules ?? []).every(
    (rule) => known.has(rule.name) && !(rule.args && 'encoding' in rule.args && rule.args.encoding),
  );
}

function stringForm(description: Description): StringForm {
  const form: StringForm = {};
  for (const rule of description.rules ?? []) {
    const args = rule.args ?? {};
    if (rule.name === 'trim' && args.enabled !== false) form.trim = true;
    if (rule.name === 'case') form.case = args.direction as 'upper' | 'lower';
    if (rule.name === 'min') form.min = args.limit as number;
    if (rule.name === 'max') form.max = args.limit as number;
    if (rule.name === 'length') form.length = args.limit as number;
  }
  return form;
}

/** A key joi would fill in (a default) must be present; a key joi strips must be absent. */
function objectNode(schema: Joi.ObjectSchema, json: JsonSchema): JsonSchema {
  const description = describe(schema);
  // An object without keys takes any keys (and joi looks at none of its values): joi decides.
  if (!description.keys || !plain(description, new Set())) return exactly(json, schema);
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required as string[] | undefined) ?? []);
  const out: Record<string, JsonSchema | boolean> = {};
  for (const [key, childDescription] of Object.entries(description.keys)) {
    const flags = childDescription.flags ?? {};
    if (flags.result === 'strip' || flags.presence === 'forbidden') {
      out[key] = false;
      continue;
    }
    if ('default' in flags) required.add(key);
    // A path of one key, as an array: a key may hold joi's path separator.
    out[key] = strictNode(schema.extract([key]), properties[key] ?? {});
  }
  return { ...json, properties: out, required: [...required], additionalProperties: false };
}

/**
 * An array of one item schema, any length: the item is rebuilt from its description (joi's `build`, on the
 * service's joi, so a string item keeps the storable-text rule), as joi offers no path to an array's items.
 */
function arrayNode(schema: Joi.ArraySchema, json: JsonSchema): JsonSchema {
  const description = describe(schema);
  const items = description.items ?? [];
  if (!plain(description, ARRAY_RULES) || items.length !== 1 || description.ordered?.length)
    return exactly(json, schema);
  return { ...json, items: strictNode(ServiceJoi.build(items[0]!), (json.items as JsonSchema | undefined) ?? {}) };
}

/** The derived JSON Schema of one node made strict enough that what it accepts, joi answers unchanged. */
function strictNode(schema: Joi.Schema, json: JsonSchema): JsonSchema {
  const description = describe(schema);
  switch (schema.type) {
    case 'object':
      return objectNode(schema as Joi.ObjectSchema, json);
    case 'array':
      return arrayNode(schema as Joi.ArraySchema, json);
    case 'string':
      if (!plain(description, STRING_RULES)) return exactly(json, schema);
      return { ...json, joiString: stringForm(description) };
    case 'number':
      if (!plain(description, NUMBER_RULES)) return exactly(json, schema);
      return { ...json, joiNumber: true };
    case 'boolean':
      return plain(description, new Set()) ? json : exactly(json, schema);
    default:
      return exactly(json, schema);
  }
}

/** References, conditions and links tie one value to another: such a schema is left to joi whole. */
function independent(schema: Joi.Schema): boolean {
  const text = JSON.stringify(schema.describe());
  return !/"(ref|whens|link|special)":/.test(text);
}

/** The strict JSON Schema `compileCanonicalCheck` compiles (exported for the property test's generators). */
export function canonicalJsonSchema(schema: Joi.Schema): JsonSchema | false {
  if (!independent(schema)) return false;
  return strictNode(schema, joiToJsonSchema(schema));
}

/**
 * Compiles, once, the check of values joi would answer unchanged, from the JSON Schema joi-to-json derives
 * of `schema` made stricter (never looser): trimmed and case-converted strings must already be so, keys
 * with a default must be present, storable text only, safe numbers only; a rule JSON Schema cannot say is
 * checked by joi on that value alone. A schema whose values refer to each other is never fast.
 */
export function compileCanonicalCheck(schema: Joi.Schema): CanonicalCheck {
  const json = canonicalJsonSchema(schema);
  if (json === false) return () => false;
  const check = ajvInstance().compile(json as AnySchemaObject);
  return (value) => {
    try {
      return check(value) as boolean;
    } catch {
      // A value ajv's own helpers cannot compare (an object without a prototype): joi decides.
      return false;
    }
  };
}
