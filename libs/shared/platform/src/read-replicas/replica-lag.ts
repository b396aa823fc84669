import type { StandbyState } from './replication.repository.js';

/** One health check of a standby: its state, the primary's position read just before, and the time. */
export interface LagSample {
  standby: StandbyState;
  primaryPosition: bigint;
  /** When the check found the standby behind for the first time since it was last caught up; null: not behind before. */
  behindSince: number | null;
  now: number;
}

/**
 * How far behind the primary a standby is, in seconds, and since when it has been behind.
 *
 * A standby that has replayed the primary's position (read just before its own) misses nothing: lag 0,
 * however long ago its last replayed transaction committed (on a quiet primary `now() -
 * pg_last_xact_replay_timestamp()` grows for ever). Behind, the lag is the smaller of that age and the
 * time this process has seen it behind: the age alone would count a quiet hour before one fresh write as
 * an hour of lag, the time seen alone would grow on a busy primary that the standby follows closely but
 * never quite reaches at the instant of a check.
 */
export function replicaLag(sample: LagSample): { lagSeconds: number; behindSince: number | null } {
  if (sample.standby.replayed >= sample.primaryPosition) return { lagSeconds: 0, behindSince: null };
  const behindSince = sample.behindSince ?? sample.now;
  const seenBehind = (sample.now - behindSince) / 1000;
  const sinceReplay = sample.standby.sinceReplaySeconds ?? Number.POSITIVE_INFINITY;
  return { lagSeconds: Math.max(0, Math.min(seenBehind, sinceReplay)), behindSince };
}
