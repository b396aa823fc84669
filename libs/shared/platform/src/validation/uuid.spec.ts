import { isUuid } from './uuid.js';

describe('isUuid', () => {
  it.each([
    '7c1f3a0e-8d7b-4c52-9a1e-2f4b6d8c0a11',
    '7C1F3A0E-8D7B-4C52-9A1E-2F4B6D8C0A11',
    '00000000-0000-0000-0000-000000000000',
  ])('takes %s, which a uuid column accepts', (value) => {
    expect(isUuid(value)).toBe(true);
  });

  it.each([
    ['a word', 'not-a-tenant'],
    ['braces', '{7c1f3a0e-8d7b-4c52-9a1e-2f4b6d8c0a11}'],
    ['a missing digit', '7c1f3a0e-8d7b-4c52-9a1e-2f4b6d8c0a1'],
    ['a trailing newline', '7c1f3a0e-8d7b-4c52-9a1e-2f4b6d8c0a11\n'],
    ['an array', ['7c1f3a0e-8d7b-4c52-9a1e-2f4b6d8c0a11']],
    ['nothing', undefined],
  ])('refuses %s', (_name, value) => {
    expect(isUuid(value)).toBe(false);
  });
});
