// CPU time of the shared back ends while a phase runs: the bench database's PostgreSQL backends and the
// Redis server. Redis serves other work on the machine too, so its figure is an upper bound.
import pg from 'pg';
import { Redis } from 'ioredis';
import { cpuMs } from './lib.mjs';

/** Samples the backends of one database while phases run; `measure(work)` → { result, postgres } (ms). */
export async function postgresSampler(databaseUrl) {
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  const database = new URL(databaseUrl).pathname.slice(1);
  const pids = async () =>
    (
      await admin.query('SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [database])
    ).rows.map((row) => row.pid);
  return {
    // Pools open and close connections, so every backend is sampled while the work runs and its last
    // reading kept; a backend first seen during the work counts from zero.
    async measure(work) {
      const start = new Map();
      const last = new Map();
      let known = false;
      const sample = async () => {
        for (const pid of await pids()) {
          const cpu = cpuMs(pid);
          if (Number.isNaN(cpu)) continue;
          if (!start.has(pid)) start.set(pid, known ? 0 : cpu);
          last.set(pid, cpu);
        }
      };
      await sample();
      known = true;
      let running = true;
      const sampler = (async () => {
        while (running) {
          await sample();
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      })();
      try {
        const result = await work();
        return { result, postgres: sumSince(start, last) };
      } finally {
        running = false;
        await sampler;
      }
    },
    close: () => admin.end(),
  };
}

function sumSince(start, last) {
  let total = 0;
  for (const [pid, cpu] of last) total += cpu - start.get(pid);
  return total;
}

/** The Redis server's own CPU time so far (INFO cpu), in ms. */
export async function redisCpuReader(url) {
  const redis = new Redis(url, { lazyConnect: true });
  await redis.connect();
  return {
    async read() {
      const info = await redis.info('cpu');
      const field = (name) => Number(new RegExp(`${name}:([\\d.]+)`).exec(info)?.[1] ?? NaN);
      return (field('used_cpu_user') + field('used_cpu_sys')) * 1000;
    },
    close: () => redis.quit(),
  };
}

/**
 * Both back ends of a bench, as `compareRounds` takes them ({ backends }): the database's PostgreSQL
 * backends and the Redis server; `close()` ends both readers.
 */
export async function backendReaders(config) {
  const postgres = await postgresSampler(config.databaseUrl);
  const redis = await redisCpuReader(config.redisUrl);
  return {
    postgres,
    redis,
    close: () => Promise.all([postgres.close(), redis.close()]),
  };
}
