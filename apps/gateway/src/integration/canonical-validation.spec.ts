import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import type Joi from 'joi';
import { compileCanonicalCheck, VALIDATION_PREFERENCES } from '@wms/platform';
import { INGEST_ENTITIES } from '@wms/ingest';
import { hostile, plausible } from '@wms/testing/fuzz';
import { integrationRoutes } from './route-table.js';

/**
 * The compiled check (ajv, from the JSON Schema joi-to-json derives) answers a value without joi only when
 * joi would answer it unchanged. Every schema the integration API validates with (each entry schema, each
 * route's body and query) meets values generated from it: plausible ones, plausible ones with every key
 * present (canonical ones among them), the same with one leaf nudged the way joi would convert (padded,
 * case-changed, a number as text, -0, a key left to its default) and hostile ones.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 150);

type Path = Array<string | number>;

/** The paths of every leaf (and of every object key) of a JSON-like value. */
function pathsOf(value: unknown, path: Path = []): Path[] {
  if (Array.isArray(value)) return value.flatMap((item, index) => pathsOf(item, [...path, index]));
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([key, child]) => [[...path, key], ...pathsOf(child, [...path, key])]);
  return path.length ? [path] : [];
}

const NUDGES: Array<(value: unknown) => unknown> = [
  (value) => (typeof value === 'string' ? ` ${value}` : value),
  (value) => (typeof value === 'string' ? `${value}\t` : value),
  (value) => (typeof value === 'string' ? value.toUpperCase() : value),
  (value) => (typeof value === 'string' ? value.toLowerCase() : value),
  (value) => (typeof value === 'number' ? String(value) : value),
  (value) => (typeof value === 'number' ? -0 : value),
  (value) => (typeof value === 'number' ? value + 0.5 : value),
  (value) => (typeof value === 'boolean' ? String(value) : value),
  () => undefined,
];

/** A copy of `value` with the leaf at `path` nudged (undefined: the key removed). */
function nudged(value: unknown, path: Path, nudge: (leaf: unknown) => unknown): unknown {
  if (!path.length) return nudge(value);
  const [head, ...rest] = path;
  if (Array.isArray(value)) return value.map((item, index) => (index === head ? nudged(item, rest, nudge) : item));
  const copy = { ...(value as Record<string, unknown>) };
  const next = nudged(copy[head as string], rest, nudge);
  if (next === undefined) delete copy[head as string];
  else copy[head as string] = next;
  return copy;
}

function nearCanonical(schema: Joi.Schema): fc.Arbitrary<unknown> {
  return plausible(schema, { everyKey: true }).chain((value) => {
    const paths = pathsOf(value);
    if (!paths.length) return fc.constant(value);
    return fc
      .tuple(fc.constantFrom(...paths), fc.constantFrom(...NUDGES))
      .map(([path, nudge]) => nudged(value, path, nudge));
  });
}

const entity = (name: string) => INGEST_ENTITIES.find((declared) => declared.entity === name)!;
const routes = integrationRoutes(INGEST_ENTITIES);
const schemas: Array<[string, Joi.Schema]> = [
  ...INGEST_ENTITIES.map((handler): [string, Joi.Schema] => [`${handler.entity} entry`, handler.entrySchema]),
  ...routes.flatMap((route) => [
    ...(route.body ? [[`${route.method} ${route.path} body`, route.body] as [string, Joi.Schema]] : []),
    ...(route.query ? [[`${route.method} ${route.path} query`, route.query] as [string, Joi.Schema]] : []),
  ]),
];

describe('the compiled check of canonical values', () => {
  it.each(schemas)('whatever it accepts of a %s, joi accepts with a deep-equal value', (_name, schema) => {
    const canonical = compileCanonicalCheck(schema);
    const bound = schema.prefs(VALIDATION_PREFERENCES);
    const values = fc.oneof(
      plausible(schema),
      plausible(schema, { everyKey: true }),
      nearCanonical(schema),
      hostile(schema),
    );

    fc.assert(
      fc.property(values, (value) => {
        if (!canonical(value)) return true;
        const result = bound.validate(value);
        return !result.error && isDeepStrictEqual(result.value, value);
      }),
      { numRuns: RUNS },
    );
  });

  it('answers canonical item, partner and location entries without joi, and leaves a nudged one to joi', () => {
    const item = { sku: 'A-1', name: 'Item', baseUomCode: 'EA', category: 'bench', tracking: 'lot', weightKg: 1.25 };
    const check = compileCanonicalCheck(entity('items').entrySchema);

    expect(check(item)).toBe(true);
    expect(check({ ...item, sku: ' A-1' })).toBe(false);
    expect(check({ ...item, weightKg: '1.25' })).toBe(false);
    expect(check({ ...item, tracking: undefined })).toBe(false);
    expect(check({ ...item, extra: 1 })).toBe(false);
    expect(check({ ...item, name: 'A\u0000B' })).toBe(false);
    expect(
      fc
        .sample(plausible(entity('locations').entrySchema, { everyKey: true }), 200)
        .some((value) => compileCanonicalCheck(entity('locations').entrySchema)(value)),
    ).toBe(true);
  });
});
