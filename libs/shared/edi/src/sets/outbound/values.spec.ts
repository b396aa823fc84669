import { x12Decimal, x12Magnitude, x12Sum, isNegative } from './values.js';

describe("X12's R type for quantities", () => {
  it('when a quantity has trailing zeros, a point without decimals or a float, it is written plainly', () => {
    expect(x12Decimal('12.5000')).toBe('12.5');
    expect(x12Decimal('10.0000')).toBe('10');
    expect(x12Decimal('-0.2500')).toBe('-0.25');
    expect(x12Decimal('0.0000')).toBe('0');
    expect(x12Decimal(0.1 + 0.2)).toBe('0.3');
    expect(x12Decimal(1e15)).toBe('1000000000000000');
    expect(x12Decimal(1.5e-3)).toBe('0.0015');
  });

  it('when quantities are summed, the sum is exact at four places', () => {
    expect(x12Sum(['0.1000', '0.2000', '0.0001'])).toBe('0.3001');
    expect(x12Sum(['999999999999.9999', '0.0001'])).toBe('1000000000000');
    expect(x12Sum([])).toBe('0');
    expect(x12Sum(['-3', 1.25])).toBe('-1.75');
  });

  it('when a quantity is negative, its magnitude and sign are told apart', () => {
    expect(isNegative('-0.5000')).toBe(true);
    expect(isNegative('0')).toBe(false);
    expect(x12Magnitude('-0.5000')).toBe('0.5');
  });

  it('when a quantity is not a decimal or has more than four places, it is refused', () => {
    expect(() => x12Decimal('1e3')).toThrow('not a decimal');
    expect(() => x12Decimal('1.23456')).toThrow('more than 4 decimal places');
    expect(() => x12Decimal(Number.NaN)).toThrow('not a number');
  });
});
