import { lsnFromKeyText, lsnToKeyText, parseLsn } from './lsn.js';
import { replicaLag } from './replica-lag.js';

const standby = (replayed: bigint, sinceReplaySeconds: number | null) => ({
  recovering: true,
  replayed,
  sinceReplaySeconds,
});

describe('the lag of a read replica', () => {
  it('is 0 when the standby has replayed the primary position, however old its last replayed transaction', () => {
    expect(
      replicaLag({ standby: standby(100n, 3600), primaryPosition: 100n, behindSince: 5_000, now: 10_000 }),
    ).toEqual({ lagSeconds: 0, behindSince: null });
  });

  it('after a quiet hour and one fresh write, counts from when it was first seen behind, not from the last replayed commit', () => {
    const first = replicaLag({ standby: standby(100n, 3600), primaryPosition: 120n, behindSince: null, now: 10_000 });
    const later = replicaLag({
      standby: standby(100n, 3601),
      primaryPosition: 120n,
      behindSince: first.behindSince,
      now: 11_500,
    });

    expect(first).toEqual({ lagSeconds: 0, behindSince: 10_000 });
    expect(later).toEqual({ lagSeconds: 1.5, behindSince: 10_000 });
  });

  it('on a busy primary it follows closely, is the age of its last replayed commit, however long it has been behind', () => {
    expect(replicaLag({ standby: standby(500n, 0.2), primaryPosition: 510n, behindSince: 0, now: 600_000 })).toEqual({
      lagSeconds: 0.2,
      behindSince: 0,
    });
  });

  it('when it has replayed no transaction yet, is the time it has been seen behind', () => {
    expect(
      replicaLag({ standby: standby(0n, null), primaryPosition: 1n, behindSince: 1_000, now: 4_000 }).lagSeconds,
    ).toBe(3);
  });
});

describe('WAL positions', () => {
  it('compare as numbers, and as the fixed-width text Redis keeps', () => {
    const low = parseLsn('0/FFFFFFFF');
    const high = parseLsn('1/0');

    expect(high - low).toBe(1n);
    expect(lsnToKeyText(low) < lsnToKeyText(high)).toBe(true);
    expect(lsnFromKeyText(lsnToKeyText(parseLsn('16/B374D848')))).toBe(parseLsn('16/b374d848'));
    expect(() => parseLsn('16-B374D848')).toThrow('not a WAL position');
  });
});
