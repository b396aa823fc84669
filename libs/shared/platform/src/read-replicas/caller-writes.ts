import type { Config } from '../config/index.js';
import type { Database } from '../db/index.js';
import { RedisDeadline, type RedisClient } from '../redis/index.js';
import { readPrimaryPosition } from './replication.repository.js';
import { WritePositions } from './write-positions.js';

/** Redis answers a GET in about a millisecond; neither a read nor a write's answer waits longer than this for it. */
const REDIS_DEADLINE = { timeoutMs: 100, pauseMs: 1_000 };
/** How often the gateways check their replicas; a position outlives the worst lag plus one check. */
export const REPLICA_CHECK_INTERVAL_MS = 1_000;

/** Who a write was made for, as the read routing keys it. */
export const caller = {
  apiKey: (id: string) => `key:${id}`,
  user: (id: string) => `user:${id}`,
};

/**
 * The WAL position of each caller's last write: stored after a write by whichever process made it (the
 * gateway after a request, the ingest worker after a bulk job), read by the gateways' read routing.
 */
export class CallerWrites {
  constructor(
    private readonly primary: Database,
    private readonly positions: WritePositions,
  ) {}

  /** Stores the primary's current WAL position as the caller's last write; call once the write has committed. */
  async afterWrite(who: string): Promise<void> {
    await this.positions.remember(who, await readPrimaryPosition(this.primary));
  }

  /** The caller's last write position, or null when it wrote nothing lately. Rejects when Redis does not answer. */
  lastWrite(who: string): Promise<bigint | null> {
    return this.positions.lastWrite(who);
  }
}

/** The callers' write positions of a process over `config.readReplicas`; null when no replica is configured. */
export function openCallerWrites(parts: { config: Config; db: Database; redis: RedisClient }): CallerWrites | null {
  const { config, db, redis } = parts;
  if (config.readReplicas.urls.length === 0) return null;
  // Once a position expires, every replica still in rotation has replayed it.
  const ttlMs = 2 * config.readReplicas.maxLagSeconds * 1000 + REPLICA_CHECK_INTERVAL_MS;
  return new CallerWrites(
    db,
    new WritePositions(redis, config.redisKeyPrefix, ttlMs, new RedisDeadline(REDIS_DEADLINE)),
  );
}
