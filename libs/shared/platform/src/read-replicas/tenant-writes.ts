import type { Config } from '../config/index.js';
import type { Database } from '../db/index.js';
import { RedisDeadline, type RedisClient } from '../redis/index.js';
import { readPrimaryPosition } from './replication.repository.js';
import { WritePositions } from './write-positions.js';

/** Redis answers a GET in about a millisecond; neither a read nor a write's answer waits longer than this for it. */
const REDIS_DEADLINE = { timeoutMs: 100, pauseMs: 1_000 };
/** How often the gateways check their replicas; a position outlives the worst lag plus one check. */
export const REPLICA_CHECK_INTERVAL_MS = 1_000;

/**
 * The WAL position of each tenant's last write, stored after a write by whichever process made it (the
 * gateway after a request, the ingest worker after a bulk job or an import chunk, the webhook worker before
 * it tells a receiver of an event, the maintenance worker after a pass that changed what tenants read),
 * read by the gateways' read routing. Keyed by tenant, not by caller: what one caller of a tenant was told
 * (an answer, a webhook, a feed entry) every other caller of that tenant may act on at once.
 */
export class TenantWrites {
  constructor(
    private readonly primary: Database,
    private readonly positions: WritePositions,
    /** How long a stored position lives: by then every replica in rotation has replayed it. */
    readonly ttlMs: number,
  ) {}

  /**
   * Stores the primary's current WAL position as the last write of `tenant` (a tenant id, or ACROSS_TENANTS);
   * call once the write has committed.
   */
  async afterWrite(tenant: string): Promise<void> {
    await this.remember(tenant, await this.primaryPosition());
  }

  /** The primary's WAL position now: at or past every write committed before. */
  primaryPosition(): Promise<bigint> {
    return readPrimaryPosition(this.primary);
  }

  /** Raises the stored last write of `tenant` to `position`. Rejects when Redis does not answer. */
  remember(tenant: string, position: bigint): Promise<void> {
    return this.positions.remember(tenant, position);
  }

  /**
   * The position a read of `tenant` must see (a tenant id, or ACROSS_TENANTS for a read across tenants), or
   * null when nothing it must see was written lately. Rejects when Redis does not answer.
   */
  lastWrite(tenant: string): Promise<bigint | null> {
    return this.positions.lastWrite(tenant);
  }
}

/** The tenants' write positions of a process over `config.readReplicas`; null when no replica is configured. */
export function openTenantWrites(parts: { config: Config; db: Database; redis: RedisClient }): TenantWrites | null {
  const { config, db, redis } = parts;
  if (config.readReplicas.urls.length === 0) return null;
  // Once a position expires, every replica still in rotation has replayed it.
  const ttlMs = 2 * config.readReplicas.maxLagSeconds * 1000 + REPLICA_CHECK_INTERVAL_MS;
  return new TenantWrites(
    db,
    new WritePositions(redis, config.redisKeyPrefix, ttlMs, new RedisDeadline(REDIS_DEADLINE)),
    ttlMs,
  );
}
