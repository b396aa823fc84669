import { ROUND_TRIPS_OF_WAIT, replicaWaitMs } from './replica-wait.js';

describe('the wait of a read for a replica', () => {
  it('is the setting when the replicas answer well within it', () => {
    expect(replicaWaitMs(50, [2, 5])).toBe(50);
  });

  it("is a few of the slowest replica's round trips when those take longer than the setting", () => {
    expect(replicaWaitMs(50, [5, 200])).toBe(ROUND_TRIPS_OF_WAIT * 200);
  });

  it('counts a replica not measured yet for nothing, and waits the setting with none measured', () => {
    expect(replicaWaitMs(50, [null, 30])).toBe(90);
    expect(replicaWaitMs(50, [null])).toBe(50);
    expect(replicaWaitMs(0, [])).toBe(0);
  });
});
