import { TimeoutError, settleWithin, within } from './within.js';

const never = () => new Promise<never>(() => undefined);

describe('within and settleWithin', () => {
  it('when the promise settles in time, within answers its value or its error', async () => {
    const value = await within(Promise.resolve(42), 1_000);
    const failure = within(Promise.reject(new Error('refused')), 1_000);

    expect(value).toBe(42);
    await expect(failure).rejects.toThrow('refused');
  });

  it('when the promise takes longer, within rejects with a TimeoutError, or the error the caller names', async () => {
    const started = Date.now();

    await expect(within(never(), 20)).rejects.toBeInstanceOf(TimeoutError);
    await expect(within(never(), 20, () => new RangeError('queue away'))).rejects.toThrow(RangeError);
    expect(Date.now() - started).toBeGreaterThanOrEqual(35);
  });

  it('settleWithin answers the value in time, and undefined for a failure or a late answer', async () => {
    const answers = await Promise.all([
      settleWithin(Promise.resolve('ok'), 1_000),
      settleWithin(Promise.reject(new Error('down')), 1_000),
      settleWithin(never(), 20),
    ]);

    expect(answers).toEqual(['ok', undefined, undefined]);
  });
});
