import { once } from 'node:events';
import { QueryTypes } from 'sequelize';
import type { Database } from '../db/index.js';
import type { Logger } from '../logging/index.js';
import { redisKey, type RedisClient } from '../redis/index.js';

/** Where a deployment's claim lies in its key space. */
export function claimKey(prefix: string): string {
  return redisKey(prefix, 'deployment');
}

/** How the key space stands: this database's (`claimed`), or another database's (`taken`, by `holder`). */
export type KeySpaceCheck = { state: 'claimed' } | { state: 'taken'; holder: string };

/** Another database has claimed this deployment's Redis key space. */
export class KeySpaceTaken extends Error {
  override name = 'KeySpaceTaken';
}

/**
 * A deployment's hold on its Redis key space (REDIS_KEY_PREFIX). Queues, rate limits, write positions and
 * caches under one prefix belong to one database: two deployments with different databases on one prefix
 * take each other's jobs. So the key space is claimed with the database's identity (its cluster's system
 * identifier and its name, which a failover to a standby keeps and a copy on another server or under
 * another name does not) by the first process that starts, and compared by every process after it; a claim
 * Redis lost (a flush, a restart without data) is written again by the next comparison.
 */
export class KeySpaceClaim {
  private identity: Promise<string> | undefined;
  /** Whether the last check found the key space taken: the refusal is logged when it is first found so. */
  private taken = false;

  constructor(
    private readonly db: Database,
    private readonly redis: RedisClient,
    private readonly prefix: string,
    private readonly logger?: Logger,
  ) {}

  /** Claims the key space, or finds it claimed by this database already (readiness asks on every probe). */
  async check(): Promise<KeySpaceCheck> {
    const identity = await this.databaseIdentity();
    const key = claimKey(this.prefix);
    await this.redis.set(key, identity, 'NX');
    const holder = await this.redis.get(key);
    // Gone between the two commands (a flush that moment): the next check writes it again.
    const found: KeySpaceCheck =
      holder === null || holder === identity ? { state: 'claimed' } : { state: 'taken', holder };
    if (found.state === 'taken' && !this.taken) this.logger?.error(this.refusal(found.holder, identity));
    this.taken = found.state === 'taken';
    return found;
  }

  /**
   * As `check` once Redis has connected (a producer's connection refuses commands before), but a key space
   * another database holds throws KeySpaceTaken with what to do about it. `signal` ends the wait.
   */
  async claim(signal?: AbortSignal): Promise<void> {
    if (this.redis.status !== 'ready') await once(this.redis, 'ready', signal ? { signal } : {});
    const found = await this.check();
    if (found.state === 'taken') throw new KeySpaceTaken(this.refusal(found.holder, await this.databaseIdentity()));
  }

  private refusal(holder: string, identity: string): string {
    return (
      `REDIS_KEY_PREFIX "${this.prefix}" is claimed by another deployment: Redis key ${claimKey(this.prefix)} ` +
      `names database ${holder}, this process's database is ${identity}. Give each deployment its own ` +
      'REDIS_KEY_PREFIX (or its own Redis), or point this one at the database that claimed the prefix; ' +
      'when that database was replaced on purpose (a new cluster, a rename), delete the key once.'
    );
  }

  private databaseIdentity(): Promise<string> {
    this.identity ??= this.db.sequelize
      .query<{ identity: string }>(
        `SELECT system_identifier::text || '/' || current_database() AS identity FROM pg_control_system()`,
        { type: QueryTypes.SELECT },
      )
      .then((rows) => rows[0]!.identity);
    // A database that did not answer is asked again next time.
    this.identity.catch(() => (this.identity = undefined));
    return this.identity;
  }
}
