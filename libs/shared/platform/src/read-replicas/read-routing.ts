import type { Config } from '../config/index.js';
import { createSequelize, type Database } from '../db/index.js';
import type { Logger } from '../logging/index.js';
import type { RedisClient } from '../redis/index.js';
import { openTenantWrites, type TenantWrites } from './tenant-writes.js';
import { DEFAULT_CHECK, ReadReplicas, type ReadChoice, type ReadReplicaSettings } from './read-replicas.js';
import { runWithReadRoute, type ReadRoute } from './routed-read.js';
import { UnstoredWrites } from './unstored-writes.js';

/** A replica that does not accept a connection in this time is treated as down (the read goes to the primary). */
const REPLICA_CONNECT_TIMEOUT_MS = 2_000;

/**
 * Read-your-writes per tenant over read replicas. After a write for a tenant, `afterWrite` stores the
 * primary's WAL position as the tenant's (TenantWrites); the reads of a later request for that tenant, by
 * any of its callers, go to a replica that has replayed that position (waiting up to
 * READ_REPLICA_MAX_WAIT_MS for one), else to the primary. A tenant with no recent write reads any replica in
 * rotation.
 */
export class ReadRouting {
  private readonly unstored: UnstoredWrites;

  constructor(
    readonly replicas: ReadReplicas,
    private readonly writes: TenantWrites,
  ) {
    this.unstored = new UnstoredWrites((tenant, position) => writes.remember(tenant, position), writes.ttlMs);
  }

  get primary(): Database {
    return this.replicas.primary;
  }

  /**
   * Runs `next` (the rest of a read request) with its routed reads going where its tenant may read. The
   * tenant is asked for at the first routed read, once the guards have named it (a tenant id, ACROSS_TENANTS
   * for a read across tenants, null: no caller, any replica); every routed read of the request then uses
   * the same database.
   */
  runReads<T>(tenantOf: () => string | null, next: () => T): T {
    let choice: Promise<ReadChoice> | undefined;
    const route: ReadRoute = {
      choose: (primary) => {
        // Another database than the one these replicas follow (never in a gateway, which has one).
        if (primary !== this.primary) return Promise.resolve(null);
        choice ??= this.choose(tenantOf());
        return choice;
      },
      leaveOut: (replica, error) => this.replicas.leaveOut(replica, error),
    };
    return runWithReadRoute(route, next);
  }

  /**
   * Stores the primary's current WAL position as the tenant's last write; call after the write committed.
   * When Redis does not take it, this gateway keeps it (its own reads of the tenant see it, and Redis is
   * offered it again until it takes it) and waits, as a read would, for every replica to replay it: once
   * they have, no gateway's read of any replica can miss the write. Rejects only when one has not: another
   * gateway's read of that replica may then miss the write until Redis takes the position.
   */
  async afterWrite(tenant: string): Promise<void> {
    const position = await this.writes.primaryPosition();
    try {
      await this.writes.remember(tenant, position);
    } catch (error) {
      this.unstored.hold(tenant, position);
      if (!(await this.replicas.replayedEverywhere(position))) throw error;
    }
  }

  close(): Promise<void> {
    this.unstored.close();
    return this.replicas.close();
  }

  private async choose(tenant: string | null): Promise<ReadChoice> {
    // With no replica in rotation, Redis need not be asked.
    if (this.replicas.inRotation === 0) return this.replicas.choose(null);
    let after: bigint | null = null;
    if (tenant !== null) {
      try {
        after = await this.writes.lastWrite(tenant);
      } catch {
        // Not knowing the tenant's last write, only the primary is sure to show it.
        return { db: this.primary, pool: 'primary', reason: 'write_unknown' };
      }
      // A write of this gateway that Redis has not taken yet: a replica only once it has replayed it.
      const unstored = this.unstored.lastWrite(tenant);
      if (unstored !== null && (after === null || unstored > after)) {
        const choice = await this.replicas.choose(unstored);
        return choice.pool === 'primary' ? { ...choice, reason: 'write_unstored' } : choice;
      }
    }
    return this.replicas.choose(after);
  }
}

/** `host:port` of a database URL: names a replica in metrics and logs without its credentials. */
export function replicaName(url: string): string {
  const { hostname, port } = new URL(url);
  return `${hostname}:${port || '5432'}`;
}

/**
 * The read routing of a gateway over `config.readReplicas`; null when no replica is configured (every read
 * on the primary). Its replicas take reads from their first passed check on (a moment after this returns);
 * its pools and checks stop with `close`.
 */
export function openReadRouting(
  parts: { config: Config; db: Database; redis: RedisClient; logger: Logger },
  settings: Partial<ReadReplicaSettings> = {},
): ReadRouting | null {
  const { config, db, logger } = parts;
  const writes = openTenantWrites(parts);
  if (!writes) return null;
  const { urls, maxWaitMs, maxLagSeconds } = config.readReplicas;
  const replicas = new ReadReplicas(
    db,
    urls.map((url) => ({
      name: replicaName(url),
      db: {
        sequelize: createSequelize(
          { databaseUrl: url, databasePoolMax: config.databasePoolMax, database: config.database },
          {
            work: 'requests',
            bounds: { connectTimeoutMs: REPLICA_CONNECT_TIMEOUT_MS },
            acquireTimeoutMs: REPLICA_CONNECT_TIMEOUT_MS,
          },
        ),
      },
    })),
    { ...DEFAULT_CHECK, maxWaitMs, maxLagSeconds, ...settings },
    logger,
  );
  const routing = new ReadRouting(replicas, writes);
  replicas.start();
  return routing;
}
