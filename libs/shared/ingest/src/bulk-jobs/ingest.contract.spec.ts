import { ingestJobPriority } from './ingest.contract.js';

/** BullMQ's order: a job without a priority (0) first, then lower priorities first, up to 2^21 − 1. */
describe('the ingest queue order of a bulk job', () => {
  it('puts a synchronous first turn in the wait list, before every prioritized job', () => {
    expect(ingestJobPriority('sync', 1)).toBe(0);
    expect(ingestJobPriority('sync', 2)).toBeGreaterThan(0);
  });

  it('orders turns within a lane, and every synchronous turn before every asynchronous one', () => {
    const sync = [1, 2, 3, 1_000, 2 ** 20 - 1, 2 ** 20].map((turn) => ingestJobPriority('sync', turn));
    const async = [1, 2, 3, 1_000, 2 ** 20].map((turn) => ingestJobPriority('async', turn));

    expect([...sync].sort((a, b) => a - b)).toEqual(sync);
    expect([...async].sort((a, b) => a - b)).toEqual(async);
    expect(Math.max(...sync)).toBeLessThan(Math.min(...async));
  });

  it("keeps a turn past its lane's band at the band's last priority, within BullMQ's limit", () => {
    expect(ingestJobPriority('sync', 10 ** 9)).toBe(ingestJobPriority('sync', 2 ** 20));
    expect(ingestJobPriority('async', 10 ** 9)).toBe(2 ** 21 - 1);
  });
});
