import { MicroBatcher } from './micro-batcher.js';

describe('MicroBatcher', () => {
  it('when calls arrive in one turn, they run as one batch and each gets its own answer', async () => {
    const batches: number[][] = [];
    const batcher = new MicroBatcher<number, number>(async (inputs) => {
      batches.push(inputs);
      return inputs.map((input) => input * 2);
    });

    const answers = await Promise.all([1, 2, 3].map((input) => batcher.submit(input)));

    expect(answers).toEqual([2, 4, 6]);
    expect(batches).toEqual([[1, 2, 3]]);
  });

  it('when a batch reaches its size limit, it runs at once and the rest form the next batch', async () => {
    const batches: number[][] = [];
    const batcher = new MicroBatcher<number, number>(async (inputs) => {
      batches.push(inputs);
      return inputs;
    }, 2);

    await Promise.all([1, 2, 3].map((input) => batcher.submit(input)));

    expect(batches).toEqual([[1, 2], [3]]);
  });

  it('when a batch fails, every caller of that batch gets the error and later calls still run', async () => {
    let fail = true;
    const batcher = new MicroBatcher<number, number>(async (inputs) => {
      if (fail) throw new Error('database went away');
      return inputs;
    });

    const failed = await Promise.allSettled([batcher.submit(1), batcher.submit(2)]);
    fail = false;
    const later = await batcher.submit(3);

    expect(failed.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    expect(later).toBe(3);
  });
});
