import { QueryTypes } from 'sequelize';
import { PreparedStatement, type Database } from '../db/index.js';
import { parseLsn } from './lsn.js';

/**
 * The replication positions the read routing compares. The primary's is its WAL insert position: taken
 * after a commit, it is at or past that commit's record whatever `synchronous_commit` says, and on a quiet
 * primary it equals the flushed position a standby can reach. It is read right after a write commits, on
 * Sequelize's pool whose connection that write has just given back (not a hot read: ADR 0130).
 */
const replayPosition = new PreparedStatement<{ lsn: string | null }>(
  'replication-replay-position',
  'SELECT pg_last_wal_replay_lsn()::text AS lsn',
);

const standbyState = new PreparedStatement<{
  recovering: boolean;
  lsn: string | null;
  sinceReplaySeconds: number | null;
}>(
  'replication-standby-state',
  `SELECT pg_is_in_recovery() AS recovering, pg_last_wal_replay_lsn()::text AS lsn,
          EXTRACT(EPOCH FROM now() - pg_last_xact_replay_timestamp())::float8 AS "sinceReplaySeconds"`,
);

/** What one look at a standby tells. */
export interface StandbyState {
  /** False once it was promoted (or was never a standby): it no longer follows the primary. */
  recovering: boolean;
  /** The last WAL position it replayed; 0 when it has replayed none. */
  replayed: bigint;
  /** Seconds since the commit of the last transaction it replayed; null when it has replayed none. */
  sinceReplaySeconds: number | null;
}

export async function readPrimaryPosition(primary: Database): Promise<bigint> {
  const [row] = await primary.sequelize.query<{ lsn: string }>('SELECT pg_current_wal_insert_lsn()::text AS lsn', {
    type: QueryTypes.SELECT,
  });
  return parseLsn(row!.lsn);
}

export async function readReplayPosition(replica: Database): Promise<bigint> {
  const [row] = await replayPosition.rows(replica.sequelize, []);
  return row?.lsn ? parseLsn(row.lsn) : 0n;
}

export async function readStandbyState(replica: Database): Promise<StandbyState> {
  const [row] = await standbyState.rows(replica.sequelize, []);
  return {
    recovering: row!.recovering,
    replayed: row!.lsn ? parseLsn(row!.lsn) : 0n,
    sinceReplaySeconds: row!.sinceReplaySeconds,
  };
}
