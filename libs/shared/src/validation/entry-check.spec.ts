import Joi from 'joi';
import { itemSchema, locationSchema, partnerSchema } from '../master-data/index.js';
import { asnSchema } from '../inbound/index.js';
import { orderSchema } from '../outbound/index.js';
import { compileEntryCheck, ENTRY_PREFERENCES } from './entry-check.js';

const bound = (schema: Joi.ObjectSchema) => schema.prefs(ENTRY_PREFERENCES);

/** A small seeded generator, so a failure names an input that can be replayed. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, pick: <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)]! };
}

const MISSING = Symbol('missing');

/** Values of every kind for one field: right ones for its type, near misses at each limit, and wrong types. */
function candidates(field: Joi.Description): unknown[] {
  const rules = (field.rules ?? []) as { name: string; args?: { limit?: number } }[];
  const max = rules.find((rule) => rule.name === 'max')?.args?.limit ?? 10;
  const wrong = [
    MISSING,
    null,
    undefined,
    '',
    '   ',
    '7',
    ' 7 ',
    'true',
    7,
    -0,
    1.5,
    Number.NaN,
    Infinity,
    true,
    {},
    [],
    2 ** 53 + 2,
  ];
  switch (field.type) {
    case 'string':
      return [
        ...wrong,
        'A-1',
        '  padded  ',
        '\tTAB\n',
        'x'.repeat(max),
        'x'.repeat(max + 1),
        ` ${'x'.repeat(max)} `,
        '😀'.repeat(Math.ceil(max / 2)),
        'A\u0000',
        '\ud800',
        'x\udfffy',
        '😀'.slice(0, 1),
        ...(((field.allow ?? []) as unknown[]).filter((value) => typeof value === 'string') as string[]).flatMap(
          (value) => [value, ` ${value}`, value.toUpperCase()],
        ),
      ];
    case 'number':
      return [...wrong, 0, 1, 42, -1, 0.25, 2 ** 53 - 1, -(2 ** 53) - 2, 1e21];
    case 'boolean':
      return [...wrong, false, 'false', 0, 1];
    default:
      return wrong;
  }
}

/** The right values only, so every entry built from them is one joi accepts. */
function rightValues(field: Joi.Description): unknown[] {
  const allowed = ((field.allow ?? []) as unknown[]).filter((value) => value !== null);
  const flags = (field.flags ?? {}) as { only?: boolean; presence?: string };
  if (field.type === 'string' && flags.only) return allowed;
  const optional = flags.presence !== 'required' ? [MISSING, ...(field.allow ?? [])] : [];
  if (field.type === 'string') return [...optional, 'A-1', '  padded  ', 'x'];
  const integer = (field.rules ?? []).some((rule: { name: string }) => rule.name === 'integer');
  if (field.type === 'number') return [...optional, 0, 3, ...(integer ? [] : [12.5])];
  if (field.type === 'boolean') return [...optional, true, false];
  return optional;
}

function entryOf(
  keys: Record<string, Joi.Description>,
  choose: (field: Joi.Description) => unknown,
): Record<string, unknown> {
  const entry: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(keys)) {
    const value = choose(field);
    if (value !== MISSING) entry[key] = value;
  }
  return entry;
}

describe('the compiled check of bulk entries', () => {
  const compiled = [
    ['items', bound(itemSchema)],
    ['locations', bound(locationSchema)],
  ] as const;

  it.each(compiled)('answers for %s exactly what joi answers, or leaves the entry to joi', (_name, schema) => {
    const check = compileEntryCheck(schema)!;
    const keys = (schema.describe() as { keys: Record<string, Joi.Description> }).keys;
    const { next, pick } = random(20261122);
    let answered = 0;

    for (let round = 0; round < 4_000; round += 1) {
      // Mostly right entries with one or two fields swapped for anything at all, plus some unknown keys.
      const entry = entryOf(keys, (field) => (next() < 0.2 ? pick(candidates(field)) : pick(rightValues(field))));
      if (next() < 0.05) entry[pick(['extra', 'constructor', 'toString'])] = 'x';
      const fast = check(entry);
      if (fast === undefined) continue;
      answered += 1;
      const joi = schema.validate(entry);
      expect({ entry, error: joi.error?.message }).toEqual({ entry, error: undefined });
      expect(fast).toStrictEqual(joi.value);
    }
    expect(answered).toBeGreaterThan(1_000);
  });

  it.each(compiled)('answers every plainly right %s entry itself, as joi does', (_name, schema) => {
    const check = compileEntryCheck(schema)!;
    const keys = (schema.describe() as { keys: Record<string, Joi.Description> }).keys;
    const { pick } = random(7);
    for (let round = 0; round < 500; round += 1) {
      const entry = entryOf(keys, (field) => pick(rightValues(field)));
      const joi = schema.validate(entry);
      expect(joi.error).toBeUndefined();
      expect(check(entry)).toStrictEqual(joi.value);
    }
  });

  it('leaves entries that are not plain objects to joi', () => {
    const check = compileEntryCheck(bound(itemSchema))!;
    const right = { sku: 'A-1', name: 'Bolt', baseUomCode: 'EA' };
    for (const entry of [
      null,
      undefined,
      'A-1',
      7,
      [right],
      Object.assign(Object.create(null), right),
      JSON.parse('{"sku":"A-1","name":"Bolt","baseUomCode":"EA","__proto__":{"x":1}}'),
    ]) {
      expect(check(entry)).toBeUndefined();
    }
    expect(check(right)).toEqual({ ...right, tracking: 'none' });
  });

  it('leaves text PostgreSQL cannot store to joi, which refuses it', () => {
    const schema = bound(itemSchema);
    const check = compileEntryCheck(schema)!;
    for (const name of ['Bolt\u0000', '\ud800', 'a\udc00b']) {
      const entry = { sku: 'A-1', name, baseUomCode: 'EA' };
      expect(check(entry)).toBeUndefined();
      expect(schema.validate(entry).error?.details[0]?.type).toBe('string.storable');
    }
  });

  it('converts as joi does: trims, sets defaults, answers 0 for -0', () => {
    const check = compileEntryCheck(bound(itemSchema))!;
    expect(check({ sku: ' A-1 ', name: '\tBolt\n', baseUomCode: 'EA', barcode: '   ', weightKg: -0 })).toStrictEqual({
      sku: 'A-1',
      name: 'Bolt',
      baseUomCode: 'EA',
      barcode: '',
      weightKg: 0,
      tracking: 'none',
    });
  });

  it('does not compile a schema with shapes it does not know, so joi validates every entry', () => {
    for (const schema of [
      bound(partnerSchema), // nested contact with an e-mail rule
      bound(asnSchema),
      bound(orderSchema),
      bound(Joi.object({ code: Joi.string().pattern(/^[A-Z]+$/) })),
      bound(Joi.object({ code: Joi.string().lowercase() })),
      bound(Joi.object({ qty: Joi.number().precision(2) })),
      bound(Joi.object({ code: Joi.string() }).unknown(true)),
      bound(Joi.object({ code: Joi.string().empty('') })),
      bound(Joi.object({ qty: Joi.number().allow(0) })),
      Joi.object({ code: Joi.string() }), // not bound to the entry preferences
      Joi.object({ code: Joi.string() }).prefs({ ...ENTRY_PREFERENCES, convert: false }),
    ]) {
      expect(compileEntryCheck(schema)).toBeNull();
    }
  });

  it('with absentOnlyWhenUnknown, answers for input that leaves out an optional field it cannot check', () => {
    const schema = bound(Joi.object({ sku: Joi.string().trim().required(), tenantId: Joi.string().guid() }));
    expect(compileEntryCheck(schema)).toBeNull();
    const check = compileEntryCheck(schema, { absentOnlyWhenUnknown: true })!;

    expect(check({ sku: ' A-1 ' })).toStrictEqual(schema.validate({ sku: ' A-1 ' }).value);
    expect(check({ sku: 'A-1', tenantId: '7c1f3a0e-8d7b-4c52-9a1e-2f4b6d8c0a11' })).toBeUndefined();
    expect(check({ sku: 'A-1', tenantId: 'not-a-guid' })).toBeUndefined();
  });

  it('with absentOnlyWhenUnknown, still refuses to compile a required or defaulted field it cannot check', () => {
    for (const schema of [
      bound(Joi.object({ tenantId: Joi.string().guid().required() })),
      bound(
        Joi.object({
          code: Joi.string()
            .pattern(/^[A-Z]+$/)
            .default('A'),
        }),
      ),
      bound(
        Joi.object({
          code: Joi.string()
            .pattern(/^[A-Z]+$/)
            .forbidden(),
        }),
      ),
    ]) {
      expect(compileEntryCheck(schema, { absentOnlyWhenUnknown: true })).toBeNull();
    }
  });
});
