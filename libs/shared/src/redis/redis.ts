import { Redis, type RedisOptions } from 'ioredis';
import type { Config } from '../config/index.js';

export type RedisRole = 'producer' | 'worker' | 'subscriber';

/**
 * Producers (the gateway) fail fast when Redis is away instead of queueing commands in memory;
 * BullMQ workers and subscribers need blocking commands that never time out.
 */
export function createRedis(config: Pick<Config, 'redisUrl'>, role: RedisRole, name?: string, overrides: RedisOptions = {}): Redis {
  const options: RedisOptions =
    role === 'producer'
      ? { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2_000 }
      : { maxRetriesPerRequest: null, enableReadyCheck: true };
  const redis = new Redis(config.redisUrl, { ...options, connectionName: name, lazyConnect: false, ...overrides });
  // Errors are reported by the health probe and the callers; an unhandled 'error' event would crash the process.
  redis.on('error', () => undefined);
  return redis;
}

/** Builds a key inside this deployment's (or this test file's) key space. */
export function redisKey(prefix: string, ...parts: string[]): string {
  return [prefix, ...parts].join(':');
}

/**
 * Closes a connection without ever hanging: a ready connection gets QUIT (bounded), anything else (still
 * connecting, reconnecting to a Redis that is away) is dropped at once.
 */
export async function closeRedis(redis: Redis, timeoutMs = 1_000): Promise<void> {
  if (redis.status === 'end') return;
  if (redis.status === 'ready') {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
    });
    await Promise.race([redis.quit().catch(() => undefined), timedOut]);
    clearTimeout(timer);
  }
  // QUIT (above) may have ended it meanwhile.
  if ((redis.status as string) !== 'end') redis.disconnect();
}
