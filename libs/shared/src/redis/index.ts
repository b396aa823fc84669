export { createRedis, closeRedis, redisKey, type RedisRole } from './redis.js';
export type { Redis } from 'ioredis';
