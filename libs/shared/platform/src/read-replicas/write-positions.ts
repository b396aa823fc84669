import { redisKey, type RedisClient, type RedisDeadline } from '../redis/index.js';
import { lsnFromKeyText, lsnToKeyText } from './lsn.js';

/**
 * Keeps the higher of the stored and the given position, and (re)sets the key's lifetime: two gateways
 * writing for one caller at once never move its position back.
 */
const REMEMBER_SCRIPT = `local current = redis.call('GET', KEYS[1])
if (not current) or current < ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
else
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 1`;

type ScriptRedis = RedisClient & {
  wmsRememberWritePosition(key: string, position: string, ttlMs: number): Promise<number>;
};

/**
 * The WAL position of each caller's last write (`key:<api key id>` or `user:<user id>`), in Redis so every
 * gateway sees the writes any of them answered. A position lives `ttlMs`: long enough that any replica
 * still in rotation has replayed it by then.
 */
export class WritePositions {
  private readonly redis: ScriptRedis;

  constructor(
    redis: RedisClient,
    private readonly prefix: string,
    private readonly ttlMs: number,
    private readonly deadline: RedisDeadline,
  ) {
    redis.defineCommand('wmsRememberWritePosition', { numberOfKeys: 1, lua: REMEMBER_SCRIPT });
    this.redis = redis as ScriptRedis;
  }

  async remember(caller: string, position: bigint): Promise<void> {
    await this.deadline.run(() =>
      this.redis.wmsRememberWritePosition(this.key(caller), lsnToKeyText(position), this.ttlMs),
    );
  }

  /** The caller's last write position, or null when it wrote nothing lately. Rejects when Redis does not answer. */
  async lastWrite(caller: string): Promise<bigint | null> {
    const stored = await this.deadline.run(() => this.redis.get(this.key(caller)));
    return stored === null ? null : lsnFromKeyText(stored);
  }

  private key(caller: string): string {
    return redisKey(this.prefix, 'write-position', caller);
  }
}
