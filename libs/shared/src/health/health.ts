import type { Sequelize } from 'sequelize';
import type { Redis } from 'ioredis';

export interface DependencyHealth {
  postgres: 'up' | 'down';
  redis: 'up' | 'down';
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('timeout')), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

export async function checkDependencies(sequelize: Sequelize, redis: Redis, timeoutMs = 2_000): Promise<DependencyHealth> {
  const [postgres, redisState] = await Promise.all([
    withTimeout(sequelize.query('SELECT 1'), timeoutMs).then(
      () => 'up' as const,
      () => 'down' as const,
    ),
    withTimeout(redis.ping(), timeoutMs).then(
      () => 'up' as const,
      () => 'down' as const,
    ),
  ]);
  return { postgres, redis: redisState };
}

/** Waits until PostgreSQL and Redis both answer; workers start only then. */
export async function waitForDependencies(
  sequelize: Sequelize,
  redis: Redis,
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
