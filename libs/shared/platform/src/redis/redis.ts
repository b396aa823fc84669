import { Cluster, Redis, type ClusterOptions, type RedisOptions } from 'ioredis';
import type { Config, RedisShape } from '../config/index.js';
import { settleWithin } from '../lifecycle/index.js';

export type RedisRole = 'producer' | 'worker' | 'subscriber';

/** One connection to the service's Redis, whatever its shape: a node (or a Sentinel-managed primary) or a cluster. */
export type RedisClient = Redis | Cluster;

export type RedisSettings = Pick<Config, 'redisUrl'> & { redis?: RedisShape };

/**
 * After a Sentinel failover the old primary turns replica and refuses writes with READONLY until ioredis
 * has found the new one: reconnect and resend the command instead of failing it.
 */
const reconnectOnReadonly = (error: Error) => (error.message.startsWith('READONLY') ? 2 : false);

function roleOptions(role: RedisRole): RedisOptions {
  // Producers (the gateway) fail fast when Redis is away instead of queueing commands in memory;
  // BullMQ workers and subscribers need blocking commands that never time out.
  return role === 'producer'
    ? { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2_000 }
    : { maxRetriesPerRequest: null, enableReadyCheck: true };
}

/**
 * The one factory every Redis user goes through (BullMQ queues, workers and QueueEvents, the rate limiter,
 * throttles, key-cache invalidation), so each of them works on a single node, behind Sentinel, or on a
 * cluster. `overrides` are node options (a retry strategy, say); on a cluster they apply to each node.
 */
export function createRedis(
  settings: RedisSettings,
  role: RedisRole,
  name?: string,
  overrides: RedisOptions = {},
): RedisClient {
  const shape: RedisShape = settings.redis ?? { kind: 'single', url: settings.redisUrl };
  const options: RedisOptions = { ...roleOptions(role), connectionName: name, lazyConnect: false, ...overrides };
  let client: RedisClient;
  if (shape.kind === 'cluster') {
    const { enableOfflineQueue, retryStrategy, ...nodeOptions } = options;
    const clusterOptions: ClusterOptions = {
      redisOptions: nodeOptions,
      enableOfflineQueue: enableOfflineQueue ?? true,
      enableReadyCheck: true,
      // A failover inside the cluster shows as MOVED/CLUSTERDOWN for a moment: retry rather than fail.
      retryDelayOnFailover: 200,
      retryDelayOnClusterDown: 200,
      ...(retryStrategy ? { clusterRetryStrategy: retryStrategy } : {}),
    };
    client = new Cluster(shape.nodes, clusterOptions);
  } else if (shape.kind === 'sentinel') {
    client = new Redis({
      ...options,
      sentinels: shape.sentinels,
      name: shape.name,
      reconnectOnError: reconnectOnReadonly,
      // Ask the sentinels again as soon as the primary goes away, not after the next connect timeout.
      failoverDetector: true,
    });
  } else {
    client = new Redis(shape.url, options);
  }
  // Errors are reported by the health probe and the callers; an unhandled 'error' event would crash the process.
  client.on('error', () => undefined);
  return client;
}

/** Builds a key inside this deployment's (or this test file's) key space. */
export function redisKey(prefix: string, ...parts: string[]): string {
  return [prefix, ...parts].join(':');
}

/**
 * The BullMQ prefix. A queue's keys are touched together by BullMQ's scripts, so on a cluster they must
 * share a slot: BullMQ asks for a hash tag, `{wms}`. On one node the prefix stays as it was, so an upgrade
 * finds the queues it left.
 */
export function queuePrefix(config: Pick<Config, 'redisKeyPrefix'> & { redis?: RedisShape }): string {
  return config.redis?.kind === 'cluster' ? `{${config.redisKeyPrefix}}` : config.redisKeyPrefix;
}

/** Every node that holds keys: the masters of a cluster, or the one connection itself. */
export function keyNodes(redis: RedisClient): Redis[] {
  return redis instanceof Cluster ? redis.nodes('master') : [redis];
}

/**
 * Closes a connection without ever hanging: a ready connection gets QUIT (bounded), anything else (still
 * connecting, reconnecting to a Redis that is away) is dropped at once.
 */
export async function closeRedis(redis: RedisClient, timeoutMs = 1_000): Promise<void> {
  if (redis.status === 'end') return;
  if (redis.status === 'ready') {
    await settleWithin(redis.quit(), timeoutMs);
  }
  // QUIT (above) may have ended it meanwhile.
  if ((redis.status as string) !== 'end') redis.disconnect();
}
