import type { Sequelize } from 'sequelize';
import type { RedisClient } from '../redis/index.js';
import type { KeySpaceClaim } from '../key-space/index.js';
import { within } from '../lifecycle/index.js';

export interface DependencyHealth {
  postgres: 'up' | 'down';
  redis: 'up' | 'down';
}

/**
 * Redis answers a PING in about a millisecond, so 300 ms without one means it is down or hanging and the
 * probe answers then; PostgreSQL gets longer, because a busy pool can make a healthy database wait.
 */
export const HEALTH_TIMEOUTS = { postgresMs: 2_000, redisMs: 300 };

export async function checkDependencies(
  sequelize: Sequelize,
  redis: RedisClient,
  timeouts = HEALTH_TIMEOUTS,
): Promise<DependencyHealth> {
  const [postgres, redisState] = await Promise.all([
    // Sequelize's own probe: one trivial statement on a pooled connection.
    within(sequelize.authenticate(), timeouts.postgresMs).then(
      () => 'up' as const,
      () => 'down' as const,
    ),
    within(redis.ping(), timeouts.redisMs).then(
      () => 'up' as const,
      () => 'down' as const,
    ),
  ]);
  return { postgres, redis: redisState };
}

export interface Readiness {
  ready: boolean;
  dependencies: DependencyHealth;
  /** The Redis key space's claim, when PostgreSQL and Redis told it: `taken` by another database is not ready. */
  keySpace?: 'claimed' | 'taken';
}

/**
 * A process is ready when PostgreSQL and Redis answer and its Redis key space is its database's (claimed
 * again here when Redis lost the claim); another database's claim found later makes it unready.
 */
export async function checkReadiness(
  sequelize: Sequelize,
  redis: RedisClient,
  keySpace: KeySpaceClaim | undefined,
  timeouts = HEALTH_TIMEOUTS,
): Promise<Readiness> {
  const dependencies = await checkDependencies(sequelize, redis, timeouts);
  const up = dependencies.postgres === 'up' && dependencies.redis === 'up';
  // Compared only once both answer: a PostgreSQL or Redis found down is not waited on a second time.
  const claim =
    up && keySpace
      ? await within(keySpace.check(), timeouts.postgresMs).then(
          (found) => found.state,
          () => undefined,
        )
      : undefined;
  const ready = up && claim !== 'taken';
  return { ready, dependencies, ...(claim ? { keySpace: claim } : {}) };
}

/** Waits until PostgreSQL and Redis both answer; workers start only then. */
export async function waitForDependencies(
  sequelize: Sequelize,
  redis: RedisClient,
  options: { attempts?: number; delayMs?: number; onWait?: (health: DependencyHealth) => void } = {},
): Promise<void> {
  const attempts = options.attempts ?? 60;
  for (let attempt = 1; ; attempt++) {
    const health = await checkDependencies(sequelize, redis);
    if (health.postgres === 'up' && health.redis === 'up') return;
    if (attempt >= attempts) throw new Error(`dependencies unavailable: ${JSON.stringify(health)}`);
    options.onWait?.(health);
    await new Promise((resolve) => setTimeout(resolve, options.delayMs ?? 1_000));
  }
}
