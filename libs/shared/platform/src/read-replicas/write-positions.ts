import { redisKey, type RedisClient, type RedisDeadline } from '../redis/index.js';
import { lsnFromKeyText, lsnToKeyText } from './lsn.js';

/**
 * Raises each key to the given position (keeps the higher of the stored and the given one) and (re)sets
 * its lifetime: two processes writing for one tenant at once never move its position back.
 */
const REMEMBER_SCRIPT = `for _, key in ipairs(KEYS) do
  local current = redis.call('GET', key)
  if (not current) or current < ARGV[1] then
    redis.call('SET', key, ARGV[1], 'PX', ARGV[2])
  else
    redis.call('PEXPIRE', key, ARGV[2])
  end
end
return 1`;

/**
 * The scope of a write or read that names no single tenant: a cross-tenant user (or key) acting on every
 * tenant. Its writes reach every tenant's reads; its reads see every tenant's writes. Never a tenant id
 * (those are UUIDs).
 */
export const ACROSS_TENANTS = '*';

type ScriptRedis = RedisClient & {
  wmsRememberWritePositions(ownKey: string, anyKey: string, position: string, ttlMs: number): Promise<number>;
};

/**
 * The WAL position of each tenant's last write, in Redis so every gateway sees the writes any process made.
 * Three kinds of key, each living `ttlMs` (long enough that any replica still in rotation has replayed it):
 * - `tenant:<id>`, a tenant's last write;
 * - `all-tenants`, the last write across tenants (a cross-tenant user's, a maintenance pass'), which every
 *   tenant's reads must see too;
 * - `any-tenant`, the last write of all, which a read across tenants must see.
 * A write raises its own key and `any-tenant` in one script; a tenant's read gets its key and `all-tenants`
 * in one MGET. So one round trip each, as with one key, and the keys are bounded by the tenants that wrote
 * in the last `ttlMs`.
 */
export class WritePositions {
  private readonly redis: ScriptRedis;

  constructor(
    redis: RedisClient,
    private readonly prefix: string,
    private readonly ttlMs: number,
    private readonly deadline: RedisDeadline,
  ) {
    redis.defineCommand('wmsRememberWritePositions', { numberOfKeys: 2, lua: REMEMBER_SCRIPT });
    this.redis = redis as ScriptRedis;
  }

  /** Raises the position of `tenant` (a tenant id, or ACROSS_TENANTS) to `position`. */
  async remember(tenant: string, position: bigint): Promise<void> {
    const own = tenant === ACROSS_TENANTS ? this.key('all-tenants') : this.tenantKey(tenant);
    await this.deadline.run(() =>
      this.redis.wmsRememberWritePositions(own, this.key('any-tenant'), lsnToKeyText(position), this.ttlMs),
    );
  }

  /**
   * The position a read of `tenant` must see (ACROSS_TENANTS: a read across tenants), or null when nothing
   * was written lately. Rejects when Redis does not answer.
   */
  async lastWrite(tenant: string): Promise<bigint | null> {
    if (tenant === ACROSS_TENANTS) {
      const stored = await this.deadline.run(() => this.redis.get(this.key('any-tenant')));
      return stored === null ? null : lsnFromKeyText(stored);
    }
    const stored = await this.deadline.run(() => this.redis.mget(this.tenantKey(tenant), this.key('all-tenants')));
    let last: bigint | null = null;
    for (const text of stored) {
      if (text === null) continue;
      const position = lsnFromKeyText(text);
      if (last === null || position > last) last = position;
    }
    return last;
  }

  private tenantKey(tenantId: string): string {
    return this.key(`tenant:${tenantId}`);
  }

  private key(name: string): string {
    return redisKey(this.prefix, 'write-position', name);
  }
}
