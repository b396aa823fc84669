import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Database } from '../db/index.js';
import { within } from '../lifecycle/index.js';
import type { Logger } from '../logging/index.js';
import { readReplicaInRotation, readReplicaLag } from '../metrics/index.js';
import { REPLICA_CHECK_INTERVAL_MS } from './tenant-writes.js';
import { replicaLag } from './replica-lag.js';
import { replicaWaitMs } from './replica-wait.js';
import { readPrimaryPosition, readReplayPosition, readStandbyState } from './replication.repository.js';

/** Why a read went where it went (the `reason` of `wms_db_reads_total`). */
export type ReadReason =
  'no_recent_write' | 'caught_up' | 'waited_out' | 'no_replica' | 'write_unknown' | 'write_unstored' | 'replica_failed';

export interface ReadChoice {
  db: Database;
  pool: 'primary' | 'replica';
  reason: ReadReason;
}

export interface ReadReplicaSettings {
  /**
   * READ_REPLICA_MAX_WAIT_MS: how long a read waits for a replica to replay its tenant's last write, at
   * least a few of the slowest replica's measured round trips (`replicaWaitMs`).
   */
  maxWaitMs: number;
  /** READ_REPLICA_MAX_LAG_SECONDS: past this, a replica takes no reads until it catches up. */
  maxLagSeconds: number;
  /** How often each replica is checked (off the request path). */
  checkIntervalMs: number;
  /** A check that takes longer counts as the replica not answering. */
  checkTimeoutMs: number;
  /** How often a waiting read asks the replicas how far they have replayed. */
  pollIntervalMs: number;
}

export const DEFAULT_CHECK = { checkIntervalMs: REPLICA_CHECK_INTERVAL_MS, checkTimeoutMs: 2_000, pollIntervalMs: 5 };

/** How much of a replica's new round trip moves its measure (a moving average, so one slow check does not). */
const ROUND_TRIP_WEIGHT = 0.3;

/** A wait that never holds the process open. */
function pause(ms: number): Promise<void> {
  return sleep(Math.max(0, ms), undefined, { ref: false });
}

interface Replica {
  /** `host:port`, the `replica` label of the metrics and the logs (never the URL: it may hold a password). */
  name: string;
  db: Database;
  inRotation: boolean;
  /** The last replayed position this process saw. */
  replayed: bigint;
  behindSince: number | null;
  /** A replay-position read in flight, shared by the reads that wait on this replica. */
  probing: Promise<void> | null;
  /** The round trip of its checks, a moving average; null before its first answer. */
  roundTripMs: number | null;
}

/**
 * A process' read replicas: which of them take reads (checked every `checkIntervalMs` in the background:
 * answering, still a standby, no further behind than `maxLagSeconds`), how far each has replayed, and the
 * choice of one for a read that must see the WAL up to a position. With no replica in rotation every read
 * goes to the primary.
 */
export class ReadReplicas {
  private readonly replicas: Replica[];
  private turn = 0;
  private timer: NodeJS.Timeout | null = null;
  private checking: Promise<void> | null = null;

  constructor(
    readonly primary: Database,
    replicas: Array<{ name: string; db: Database }>,
    private readonly settings: ReadReplicaSettings,
    private readonly logger: Logger,
  ) {
    this.replicas = replicas.map(({ name, db }) => ({
      name,
      db,
      inRotation: false,
      replayed: 0n,
      behindSince: null,
      probing: null,
      roundTripMs: null,
    }));
    for (const replica of this.replicas) readReplicaInRotation.set({ replica: replica.name }, 0);
  }

  /** Checks every replica now, then every `checkIntervalMs`, off the request path. */
  start(): void {
    this.timer = setInterval(() => void this.check(), this.settings.checkIntervalMs);
    this.timer.unref();
    void this.check();
  }

  /** One round of checks (a round still running is joined, never doubled). */
  check(): Promise<void> {
    this.checking ??= this.checkAll().finally(() => {
      this.checking = null;
    });
    return this.checking;
  }

  get inRotation(): number {
    return this.replicas.filter((replica) => replica.inRotation).length;
  }

  /**
   * A database for a read that must see the primary's WAL up to `after` (null: any replica in rotation
   * will do). A replica that has replayed it already is taken at once; otherwise the replicas are asked
   * again every `pollIntervalMs` for up to `maxWaitMs`, and then the read goes to the primary.
   */
  async choose(after: bigint | null): Promise<ReadChoice> {
    const serving = this.replicas.filter((replica) => replica.inRotation);
    if (serving.length === 0) return { db: this.primary, pool: 'primary', reason: 'no_replica' };
    if (after === null) return { db: this.next(serving).db, pool: 'replica', reason: 'no_recent_write' };
    const ready = () => serving.filter((replica) => replica.inRotation && replica.replayed >= after);
    const caughtUp = await this.waitUntil(() => ready().length > 0, serving);
    if (!caughtUp) return { db: this.primary, pool: 'primary', reason: 'waited_out' };
    return { db: this.next(ready()).db, pool: 'replica', reason: 'caught_up' };
  }

  /**
   * True once every replica (in rotation here or not: another gateway may judge it otherwise) has replayed
   * `position`, within the wait a read would make; false when one has not by then.
   */
  replayedEverywhere(position: bigint): Promise<boolean> {
    return this.waitUntil(() => this.replicas.every((replica) => replica.replayed >= position), this.replicas);
  }

  /** Asks `asked` how far they replayed, every `pollIntervalMs`, until `done` or the wait bound has passed. */
  private async waitUntil(done: () => boolean, asked: Replica[]): Promise<boolean> {
    const deadline =
      Date.now() +
      replicaWaitMs(
        this.settings.maxWaitMs,
        asked.map((replica) => replica.roundTripMs),
      );
    for (let round = 0; ; round += 1) {
      if (done()) return true;
      if (Date.now() >= deadline) return false;
      if (round > 0) await pause(Math.min(this.settings.pollIntervalMs, deadline - Date.now()));
      await Promise.race([Promise.all(asked.map((replica) => this.probe(replica))), pause(deadline - Date.now())]);
    }
  }

  /** A read on `db` lost its connection: the replica takes no reads until a check finds it answering again. */
  leaveOut(db: Database, error: unknown): void {
    const replica = this.replicas.find((candidate) => candidate.db === db);
    if (replica) this.setRotation(replica, false, { err: error }, 'read replica lost a connection');
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.checking?.catch(() => undefined);
    await Promise.allSettled(this.replicas.map((replica) => replica.db.sequelize.close()));
    for (const replica of this.replicas) {
      readReplicaLag.remove({ replica: replica.name });
      readReplicaInRotation.remove({ replica: replica.name });
    }
  }

  private next(candidates: Replica[]): Replica {
    this.turn = (this.turn + 1) % candidates.length;
    return candidates[this.turn]!;
  }

  private probe(replica: Replica): Promise<void> {
    replica.probing ??= readReplayPosition(replica.db)
      .then(
        (replayed) => {
          if (replayed > replica.replayed) replica.replayed = replayed;
        },
        // A replica that does not answer is the checks' business; the read goes on waiting or to the primary.
        () => undefined,
      )
      .finally(() => {
        replica.probing = null;
      });
    return replica.probing;
  }

  private async checkAll(): Promise<void> {
    let primaryPosition: bigint;
    try {
      primaryPosition = await this.withinCheckTimeout(readPrimaryPosition(this.primary));
    } catch (error) {
      // Without the primary's position no lag can be judged; the replicas keep their standing until it answers.
      this.logger.warn({ err: error }, 'read replica check could not read the primary position');
      return;
    }
    await Promise.all(this.replicas.map((replica) => this.checkOne(replica, primaryPosition)));
  }

  private async checkOne(replica: Replica, primaryPosition: bigint): Promise<void> {
    const labels = { replica: replica.name };
    try {
      const started = performance.now();
      const standby = await this.withinCheckTimeout(readStandbyState(replica.db));
      const roundTripMs = performance.now() - started;
      replica.roundTripMs =
        replica.roundTripMs === null
          ? roundTripMs
          : replica.roundTripMs + ROUND_TRIP_WEIGHT * (roundTripMs - replica.roundTripMs);
      if (!standby.recovering) {
        readReplicaLag.remove(labels);
        this.setRotation(replica, false, {}, 'read replica is no longer a standby');
        return;
      }
      if (standby.replayed > replica.replayed) replica.replayed = standby.replayed;
      const { lagSeconds, behindSince } = replicaLag({
        standby,
        primaryPosition,
        behindSince: replica.behindSince,
        now: Date.now(),
      });
      replica.behindSince = behindSince;
      readReplicaLag.set(labels, lagSeconds);
      const lagging = lagSeconds > this.settings.maxLagSeconds;
      this.setRotation(replica, !lagging, { lagSeconds }, lagging ? 'read replica lags' : 'read replica caught up');
    } catch (error) {
      readReplicaLag.remove(labels);
      this.setRotation(replica, false, { err: error }, 'read replica does not answer');
    }
  }

  private setRotation(replica: Replica, inRotation: boolean, fields: object, message: string): void {
    readReplicaInRotation.set({ replica: replica.name }, inRotation ? 1 : 0);
    if (replica.inRotation === inRotation) return;
    replica.inRotation = inRotation;
    const line = { replica: replica.name, ...fields };
    if (inRotation) this.logger.info(line, `${message}: it takes reads again`);
    else this.logger.warn(line, `${message}: its reads go elsewhere`);
  }

  private withinCheckTimeout<T>(work: Promise<T>): Promise<T> {
    return within(work, this.settings.checkTimeoutMs, () => new Error('read replica check timed out'));
  }
}
