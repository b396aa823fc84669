import { configVariables } from './config.schema.js';

// Each setting is declared once (ADR 0120); joi applies a default without validating it, so these hold what
// the declarations promise: a default passes its own rule, and presence follows `default` / `required`.

const described = (name: keyof typeof configVariables) =>
  configVariables[name].schema.describe() as { type: string; flags?: { default?: unknown; presence?: string } };

const names = Object.keys(configVariables) as Array<keyof typeof configVariables>;

describe('the declared settings', () => {
  it('give every default a value their own rule accepts, unchanged', () => {
    const refused = names.flatMap((name) => {
      const fallback = described(name).flags?.default;
      if (fallback === undefined) return [];
      const { error, value } = configVariables[name].schema.validate(fallback, { convert: false });
      return error || value !== fallback ? [name] : [];
    });

    expect(refused).toEqual([]);
  });

  it('load a setting with neither default nor required as absent, and refuse a required one that is missing', () => {
    const optional = names.filter((name) => {
      const flags = described(name).flags;
      return flags?.default === undefined && flags?.presence !== 'required';
    });
    const required = names.filter((name) => described(name).flags?.presence === 'required');

    expect(optional.length).toBeGreaterThan(5);
    for (const name of optional)
      expect([name, configVariables[name].schema.validate(undefined).value]).toEqual([name, undefined]);
    expect(required).toEqual(['JWT_SECRET']);
    expect(configVariables.JWT_SECRET.schema.validate(undefined).error?.details[0]?.type).toBe('any.required');
  });

  it('describe every setting in one line', () => {
    const undescribed = names.filter((name) => {
      const { description } = configVariables[name];
      return description.trim().length < 10 || description.includes('\n');
    });

    expect(undescribed).toEqual([]);
  });
});
