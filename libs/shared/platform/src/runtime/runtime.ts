import type { Config } from '../config/index.js';
import { createSequelize, type Database, type SessionWork } from '../db/index.js';
import { createLogger, type Logger } from '../logging/index.js';
import { closeRedis, createRedis, type RedisClient, type RedisRole } from '../redis/index.js';
import { KeySpaceClaim } from '../key-space/index.js';

/** The connections one process holds. Apps open one at start and close it on SIGTERM. */
export interface Runtime {
  config: Config;
  logger: Logger;
  db: Database;
  redis: RedisClient;
  /** This deployment's hold on its Redis key space: claimed at start, compared by readiness. */
  keySpace: KeySpaceClaim;
  /** Registers what must stop before the connections close (flushers, subscribers); run newest first. */
  onClose(hook: () => Promise<void>): void;
  close(): Promise<void>;
}

export interface RuntimeOptions {
  name: string;
  redisRole: RedisRole;
  logger?: Logger;
  /**
   * What the process's database connections serve, which bounds their waits (ADR 0130): a gateway's
   * requests, a worker's jobs; default: setup (a command, a benchmark's data, a test's arranging).
   */
  databaseWork?: Extract<SessionWork, 'requests' | 'jobs' | 'setup'>;
}

export function openRuntime(config: Config, options: RuntimeOptions): Runtime {
  const logger = options.logger ?? createLogger({ level: config.logLevel, name: options.name });
  const sequelize = createSequelize(config, { work: options.databaseWork ?? 'setup' });
  const db: Database = { sequelize };
  const redis = createRedis(config, options.redisRole, options.name);
  let closed = false;
  const hooks: Array<() => Promise<void>> = [];
  return {
    config,
    logger,
    db,
    redis,
    keySpace: new KeySpaceClaim(db, redis, config.redisKeyPrefix, logger),
    onClose(hook) {
      hooks.push(hook);
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const hook of hooks.reverse()) {
        await hook().catch((error: unknown) => logger.error({ err: error }, 'close hook failed'));
      }
      await Promise.allSettled([closeRedis(redis), sequelize.close()]);
    },
  };
}
