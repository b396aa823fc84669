// Shared plumbing of the benchmarks: a fresh database and Redis prefix per bench, apps started as real
// child processes from their built output, and autocannon as a promise.
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { Redis } from 'ioredis';
import { createLogger, dropDatabase, loadConfig, prepareDatabase } from '@wms/shared';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** A database and Redis prefix of the bench's own; the same env for every process it starts. */
export async function prepareBenchEnv(name, overrides = {}) {
  const suffix = randomBytes(3).toString('hex');
  const env = {
    ...process.env,
    NODE_ENV: 'production',
    DATABASE_URL: `postgres://postgres@127.0.0.1:5432/wms_bench_${name.replace(/\W/g, '_')}_${suffix}`,
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    REDIS_KEY_PREFIX: `wmsbench-${name}-${suffix}`,
    JWT_SECRET: randomBytes(32).toString('hex'),
    SEED_ADMIN_PASSWORD: `bench-${randomBytes(8).toString('hex')}`,
    BCRYPT_ROUNDS: '4',
    LOG_LEVEL: 'warn',
    ...overrides,
  };
  const config = loadConfig(env);
  await prepareDatabase(config, createLogger({ level: 'warn', name: 'bench' }));
  return {
    env,
    config,
    async cleanup() {
      await dropDatabase(config.databaseUrl);
      await deleteRedisPrefix(config.redisUrl, config.redisKeyPrefix);
    },
  };
}

/** Removes every key of the bench's prefix: finished jobs keep their payloads for an hour otherwise. */
async function deleteRedisPrefix(url, prefix) {
  const redis = new Redis(url, { lazyConnect: true });
  await redis.connect();
  try {
    for await (const keys of redis.scanStream({ match: `${prefix}:*`, count: 1000 })) {
      if (keys.length) await redis.unlink(...keys);
    }
  } finally {
    redis.disconnect();
  }
}

/** Starts one app (gateway | ingest-worker | webhook-worker) as a child process; resolves once it is up. */
export async function startApp(app, env, { port } = {}) {
  const child = fork(join(root, 'apps', app, 'dist', 'main.js'), [], {
    env: { ...env, ...(port ? { PORT: String(port) } : {}) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const stop = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  if (app === 'gateway') await waitForReady(`http://127.0.0.1:${port ?? env.PORT ?? 3000}/health/ready`);
  else await new Promise((resolve) => setTimeout(resolve, 1500));
  return { child, stop };
}

export async function waitForReady(url, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} did not become ready`);
}

/** Runs autocannon with bounded duration (seconds) or request count; resolves with its result. */
export function load(options) {
  return new Promise((resolve, reject) => {
    autocannon({ connections: 16, ...options }, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

export function freePort() {
  return 20000 + Math.floor(Math.random() * 20000);
}

export function ratio(a, b) {
  return b ? (a / b).toFixed(2) : 'n/a';
}
