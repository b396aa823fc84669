export {
  createRedis,
  closeRedis,
  keyNodes,
  queuePrefix,
  redisKey,
  type RedisClient,
  type RedisRole,
  type RedisSettings,
} from './redis.js';
export type { Redis } from 'ioredis';
export { RedisDeadline, RedisTimeoutError, type RedisDeadlineOptions } from './redis-deadline.js';
