import { createRequire } from 'node:module';
import type Joi from 'joi';
import type { parse as JoiToJson } from 'joi-to-json';

// joi-to-json is CommonJS with `module.exports = parse`, which its type declarations do not describe.
const parse: typeof JoiToJson = createRequire(import.meta.url)('joi-to-json');

/** A JSON Schema (2020-12, as OpenAPI 3.1 uses it). */
export type JsonSchema = Record<string, unknown>;

/**
 * The JSON Schema of a joi schema, by joi-to-json from `schema.describe()`: what the validator enforces
 * (keys, required, limits, formats, allowed values, null, defaults, descriptions). `Joi.link('#Name')`
 * becomes a reference to the component `Name`.
 */
export function joiToJsonSchema(schema: Joi.Schema): JsonSchema {
  return withoutOpenDefaults(parse(schema, 'open-api-3.1')) as JsonSchema;
}

/**
 * Drops what an open object says that JSON Schema assumes anyway (`additionalProperties: true`, no
 * `properties`), so renderers do not invent example fields for it.
 */
function withoutOpenDefaults(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutOpenDefaults);
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (key === 'additionalProperties' && child === true) continue;
    if (key === 'properties' && child && typeof child === 'object' && !Object.keys(child).length) continue;
    out[key] = withoutOpenDefaults(child);
  }
  return out;
}
