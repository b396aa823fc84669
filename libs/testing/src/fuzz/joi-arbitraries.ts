import fc from 'fast-check';
import type Joi from 'joi';

/** The parts of joi's `describe()` output the generators read. */
interface Description {
  type?: string;
  flags?: { presence?: string; only?: boolean; default?: unknown };
  allow?: unknown[];
  keys?: Record<string, Description>;
  items?: Description[];
  rules?: { name: string; args?: Record<string, unknown> }[];
}

const NUL = '\u0000';

/** Values that have broken services before: wrong types, text PostgreSQL cannot store, numbers no column holds. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    null,
    '',
    '   ',
    NUL,
    `A${NUL}B`,
    '\ud800',
    'x\udfff',
    '\udc00\ud800',
    '😀'.slice(0, 1),
    '%00',
    '%E0%A4%A',
    '\\u0000',
    "'; DROP TABLE items; --",
    '../../etc/passwd',
    '<script>alert(1)</script>',
    '2024-02-30',
    '1e10',
    'true',
    'x'.repeat(100_000),
    0,
    -0,
    -1,
    1.5,
    1e10,
    -1e10,
    1e300,
    -1e300,
    2 ** 53 + 1,
    Number.MAX_VALUE,
    1e-12,
    true,
    false,
    [],
    {},
    [[[[]]]],
    { $gt: '' },
  ),
  fc.integer().map((n) => n * 1_000_003),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.jsonValue({ maxDepth: 3 }),
  fc.integer({ min: 5, max: 30 }).map((depth) => nestedObject(depth)),
);

function nestedObject(depth: number): unknown {
  let value: unknown = 'deep';
  for (let level = 0; level < depth; level += 1) value = { a: value };
  return value;
}

const describeOf = (schema: Joi.Schema): Description => schema.describe() as Description;
const limit = (description: Description, name: string): number | undefined =>
  description.rules?.find((rule) => rule.name === name)?.args?.limit as number | undefined;
const hasRule = (description: Description, ...names: string[]): boolean =>
  !!description.rules?.some((rule) => names.includes(rule.name));

/**
 * Values a schema probably accepts: right types, lengths and ranges (a guide for the mutations, not a
 * promise). `everyKey`: every key of every object present (a key with a default too).
 */
export function plausible(schema: Joi.Schema, { everyKey = false } = {}): fc.Arbitrary<unknown> {
  return plausibleOf(describeOf(schema), everyKey);
}

function plausibleOf(description: Description, everyKey = false): fc.Arbitrary<unknown> {
  const allowed = (description.allow ?? []).filter((value) => value !== null);
  if (description.flags?.only && allowed.length) return fc.constantFrom(...allowed);
  switch (description.type) {
    case 'object': {
      const keys = description.keys ?? {};
      const shape = Object.fromEntries(Object.entries(keys).map(([key, child]) => [key, plausibleOf(child, everyKey)]));
      const required = Object.keys(keys).filter((key) => everyKey || keys[key]!.flags?.presence === 'required');
      return fc.record(shape, { requiredKeys: required });
    }
    case 'string':
      return plausibleString(description);
    case 'number': {
      const min = Math.max(limit(description, 'min') ?? -1_000, -1_000_000);
      const max = Math.min(limit(description, 'max') ?? 1_000, 1_000_000);
      const low = hasRule(description, 'positive') ? Math.max(min, 1) : min;
      return fc.integer({ min: Math.ceil(low), max: Math.max(Math.ceil(low), Math.floor(max)) });
    }
    case 'boolean':
      return fc.boolean();
    case 'array': {
      const item = description.items?.[0] ? plausibleOf(description.items[0], everyKey) : fc.jsonValue({ maxDepth: 1 });
      const minLength = limit(description, 'min') ?? 0;
      return fc.array(item, { minLength, maxLength: Math.max(minLength, Math.min(limit(description, 'max') ?? 3, 3)) });
    }
    case 'date':
      return fc.integer({ min: 1, max: 3_000 }).map((days) => new Date(Date.now() + days * 86_400_000).toISOString());
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function plausibleString(description: Description): fc.Arbitrary<string> {
  if (hasRule(description, 'guid', 'uuid')) return fc.uuid();
  if (hasRule(description, 'email')) return fc.emailAddress();
  const pattern = description.rules?.find((rule) => rule.name === 'pattern')?.args?.regex;
  if (typeof pattern === 'string') {
    if (pattern.includes('\\d{4}-\\d{2}-\\d{2}')) return fc.constantFrom('2030-01-15', '2031-12-31', '2024-02-29');
    const source = /^\/(.*)\/[a-z]*$/s.exec(pattern)?.[1];
    if (source) return fc.stringMatching(new RegExp(source));
  }
  const minLength = limit(description, 'min') ?? 0;
  const maxLength = Math.max(minLength, Math.min(limit(description, 'max') ?? 40, 40));
  return fc.string({ minLength, maxLength, unit: 'grapheme' });
}

/**
 * Requests a schema should refuse, or accept, at random: a plausible value with one part broken (a field
 * replaced by a hostile value or a wrong type, a required field dropped, an unknown or prototype key
 * added, an object sent as an array), recursively into nested objects and arrays.
 */
export function hostile(schema: Joi.Schema): fc.Arbitrary<unknown> {
  return hostileOf(describeOf(schema), 0);
}

/** Breaks a value of the described type the way that type is most often broken. */
function typedHostility(description: Description): fc.Arbitrary<unknown> {
  switch (description.type) {
    case 'string': {
      const text = plausibleString(description);
      return fc.oneof(
        fc.tuple(text, fc.constantFrom(NUL, '\ud800', '\udfff', '\udc00\ud800'), fc.nat()).map(([value, bad, at]) => {
          const index = value.length ? at % (value.length + 1) : 0;
          return `${value.slice(0, index)}${bad}${value.slice(index)}`;
        }),
        fc.constantFrom('', '   ', 'x'.repeat(100_000), 'x'.repeat((limit(description, 'max') ?? 255) + 1)),
      );
    }
    case 'number':
      return fc.oneof(
        fc.constantFrom(1e10, -1e10, 1e15, 1e300, -1e300, 2 ** 31, 2 ** 53 + 1, 1e-7, 0.12345, -0),
        fc.double({ noNaN: true }),
      );
    case 'boolean':
      return fc.constantFrom('true', 0, 1, 'yes', null);
    default:
      return hostileValue;
  }
}

function hostileOf(description: Description, depth: number): fc.Arbitrary<unknown> {
  const whole = fc.oneof(
    { weight: 3, arbitrary: typedHostility(description) },
    { weight: 2, arbitrary: hostileValue },
    { weight: 1, arbitrary: plausibleOf(description) },
  );
  if (depth > 3) return whole;
  if (description.type === 'object' && description.keys && Object.keys(description.keys).length) {
    const keys = description.keys;
    const names = Object.keys(keys);
    const base = plausibleOf(description) as fc.Arbitrary<Record<string, unknown>>;
    // One to three fields broken at once, each the way its type breaks.
    const brokenFields = fc
      .tuple(base, fc.uniqueArray(fc.constantFrom(...names), { minLength: 1, maxLength: Math.min(3, names.length) }))
      .chain(([value, chosen]) =>
        fc
          .tuple(...chosen.map((name) => hostileOf(keys[name]!, depth + 1)))
          .map((broken) => ({ ...value, ...Object.fromEntries(chosen.map((name, index) => [name, broken[index]])) })),
      );
    const dropped = fc
      .tuple(base, fc.constantFrom(...names))
      .map(([value, name]) => Object.fromEntries(Object.entries(value).filter(([key]) => key !== name)));
    const extra = fc
      .tuple(base, fc.constantFrom('extra', '__proto__', 'constructor', 'toString', ''), hostileValue)
      .map(([value, name, added]) => withOwnKey(value, name, added));
    return fc.oneof(
      { weight: 6, arbitrary: brokenFields },
      { weight: 1, arbitrary: dropped },
      { weight: 1, arbitrary: extra },
      { weight: 1, arbitrary: base.map((value) => [value]) },
      { weight: 1, arbitrary: whole },
    );
  }
  if (description.type === 'array' && description.items?.[0]) {
    const item = description.items[0];
    return fc.oneof(
      { weight: 4, arbitrary: fc.array(hostileOf(item, depth + 1), { minLength: 1, maxLength: 3 }) },
      { weight: 1, arbitrary: plausibleOf(item) },
      { weight: 1, arbitrary: whole },
    );
  }
  return whole;
}

/** Adds a key as JSON.parse would (an own, enumerable property), so `__proto__` reaches the wire. */
function withOwnKey(value: Record<string, unknown>, key: string, added: unknown): Record<string, unknown> {
  const copy = { ...value };
  Object.defineProperty(copy, key, { value: added, enumerable: true, configurable: true, writable: true });
  return copy;
}
