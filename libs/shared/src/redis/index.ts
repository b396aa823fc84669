export { createRedis, redisKey, type RedisRole } from './redis.js';
export type { Redis } from 'ioredis';
