// Shared plumbing of the benchmarks: a fresh database and Redis prefix per bench; the apps, every
// baseline and the load generator each started as a process of its own; what /proc says about them
// (peak RSS, CPU time); rounds that alternate the sides and their min/median/max.
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { Redis } from 'ioredis';
import { DEFAULT_TENANT_CODE } from '@wms/identity';
import { createLogger, dropDatabase, loadConfig } from '@wms/platform';
import { prepareDatabase } from '@wms/setup';

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
    SECRETS_ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`,
    SEED_ADMIN_PASSWORD: `bench-${randomBytes(8).toString('hex')}`,
    METRICS_TOKEN: randomBytes(16).toString('hex'),
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

/** The seeded tenant and a read/write API key of it, named after the bench: { tenant, key } (key.rawKey to send). */
export async function benchApiKey(services, name) {
  const tenant = await services.tenants.findByCode(DEFAULT_TENANT_CODE);
  const key = await services.apiKeys.create({ name, scopes: ['read', 'write'], tenantId: tenant.id }, null);
  return { tenant, key };
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

/**
 * BENCH_CPU_PROF=<dir>: each app and each server of a baseline writes a V8 CPU profile there when it exits
 * (named after its pid), to see where the time of each side goes. BENCH_NODE_FLAGS="<flags>": more flags for
 * the same processes, e.g. --perf-basic-prof, so that `perf record -p <pid>` names their JavaScript.
 */
function cpuProfileFlags() {
  return [
    ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []),
    ...(process.env.BENCH_NODE_FLAGS?.split(/\s+/).filter(Boolean) ?? []),
  ];
}

/** Starts one app (gateway | ingest-worker | webhook-worker) as a child process; resolves once it is up. */
export async function startApp(app, env, { port, execArgv = [], logFile } = {}) {
  const profile = cpuProfileFlags();
  // logFile: the app's log lines go to that file, as a container's go to its runtime, not to the terminal.
  const out = logFile ? openSync(logFile, 'a') : 'inherit';
  const child = fork(join(root, 'apps', app, 'dist', 'main.js'), [], {
    env: { ...env, ...(port ? { PORT: String(port) } : {}) },
    // V8's defaults, as production runs the apps (tools/entrypoint.sh adds only a heap limit), then the bench's own.
    execArgv: [...profile, ...execArgv],
    stdio: ['ignore', out, 'inherit', 'ipc'],
  });
  if (typeof out === 'number') closeSync(out);
  if (app === 'gateway') await waitForReady(`http://127.0.0.1:${port ?? env.PORT ?? 3000}/health/ready`);
  else await new Promise((resolve) => setTimeout(resolve, 1500));
  return withStop(child);
}

/**
 * Starts a helper process of the bench (a baseline server, the raw upsert driver, the receiver, the load
 * generator) from tools/bench/processes; resolves with its first message ({ ready, ...details }).
 * `call(message)` sends a request and resolves with the answer of the same id.
 */
export async function startHelper(name, env = process.env, args = [], { logFile } = {}) {
  // logFile: a helper that logs like the apps (the guard servers) writes there too.
  const out = logFile ? openSync(logFile, 'a') : 'inherit';
  const child = fork(join(root, 'tools', 'bench', 'processes', `${name}.mjs`), args, {
    env,
    execArgv: name === 'loadgen' ? [] : cpuProfileFlags(),
    stdio: ['ignore', out, 'inherit', 'ipc'],
  });
  if (typeof out === 'number') closeSync(out);
  const ready = await new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code} before it was ready`)));
  });
  let nextId = 0;
  const waiting = new Map();
  child.on('message', (message) => {
    const pending = waiting.get(message.id);
    if (!pending) return;
    waiting.delete(message.id);
    if (message.error) pending.reject(new Error(`${name}: ${message.error}`));
    else pending.resolve(message.result);
  });
  return {
    ...withStop(child),
    ready,
    call(message) {
      const id = ++nextId;
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        child.send({ ...message, id });
      });
    },
  };
}

function withStop(child) {
  return {
    child,
    pid: child.pid,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export async function waitForReady(url, timeoutMs = 90_000) {
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

/**
 * Runs autocannon in this process with bounded duration (seconds) or request count (the capacity probe;
 * the comparing benches use the load generator process instead).
 */
export function load(options) {
  return new Promise((resolve, reject) => {
    autocannon({ connections: 16, ...options }, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

/** Peak resident set size of a process so far (VmHWM), in MB. */
/**
 * Starts a new peak for peakRssMb (Linux: writing 5 to clear_refs resets VmHWM to the current RSS); false
 * where that is not allowed, and the peak then runs from the process' start.
 */
export function resetPeakRss(pid) {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

export function peakRssMb(pid) {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

const TICKS_PER_SECOND = 100;

/** User + system CPU time a process has used so far, in ms (from /proc/<pid>/stat). */
export function cpuMs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return NaN;
  }
}

/** The machine's busy and total CPU ticks so far, over every core (from /proc/stat; idle and iowait are not busy). */
function machineTicks() {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0].trim().split(/\s+/).slice(1).map(Number);
  const total = fields.reduce((sum, value) => sum + value, 0);
  return { busy: total - fields[3] - fields[4], total };
}

/** How busy the machine's cores were since `before` (machineTicks), as a fraction. */
function busySince(before) {
  const after = machineTicks();
  return (after.busy - before.busy) / (after.total - before.total);
}

/** Runs `work` and answers its result with how busy the machine's cores were meanwhile: { result, busy }. */
export async function withMachineBusy(work) {
  const before = machineTicks();
  const result = await work();
  return { result, busy: busySince(before) };
}

/** CPU ms a set of processes spends while `work` runs: { result, cpu: { [name]: ms } }. */
export async function measureCpu(pids, work) {
  const before = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuMs(pid)]));
  const result = await work();
  const cpu = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuMs(pid) - before[name]]));
  return { result, cpu };
}

export function freePort() {
  return 20000 + Math.floor(Math.random() * 20000);
}

export function ratio(a, b) {
  return b ? (a / b).toFixed(2) : 'n/a';
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** "median (min–max)" of a list of ratios, two decimals. */
export function spread(values) {
  const fixed = (value) => value.toFixed(2);
  return `${fixed(median(values))} (${fixed(Math.min(...values))}–${fixed(Math.max(...values))})`;
}

export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

/**
 * Runs `rounds` rounds of one case, the two sides in alternating order (service first, then bare first),
 * each through the load generator process. `service` and `bare` are { load, pid }: the load generator's
 * run options and the pid whose CPU time is charged to that side. Returns one table row: throughput
 * median (min–max) ratio, p99s, CPU ms per request of each side and of the load generator, how busy the
 * machine's cores were (a side that leaves them idle waits on something), failures; with `backends`, what
 * PostgreSQL and Redis spent per request.
 */
export async function compareRounds(name, loadgen, service, bare, { rounds = ROUNDS, perRequest = 1, backends } = {}) {
  const ours = [];
  const theirs = [];
  const side = async (target, into) => {
    const machineBefore = machineTicks();
    const run = () => measureCpu({ side: target.pid, loadgen: loadgen.pid }, () => loadgen.call(target.load));
    // With `backends`, the shared back ends' CPU too: the bench database's PostgreSQL backends, the Redis server.
    const redisBefore = backends ? await backends.redis.read() : 0;
    const { result: measured, postgres } = backends ? await backends.postgres.measure(run) : { result: await run() };
    const { result, cpu } = measured;
    const requests = Math.max(1, result.total);
    const machineBusy = busySince(machineBefore);
    into.push({
      ...result,
      cpuPerRequest: cpu.side / requests,
      loadgenPerRequest: cpu.loadgen / requests,
      machineBusy,
      ...(backends && {
        backendPerRequest: {
          postgres: postgres / requests,
          redis: ((await backends.redis.read()) - redisBefore) / requests,
        },
      }),
    });
  };
  for (let round = 0; round < rounds; round += 1) {
    if (round % 2 === 0) {
      await side(service, ours);
      await side(bare, theirs);
    } else {
      await side(bare, theirs);
      await side(service, ours);
    }
  }
  const ratios = ours.map((result, i) => result.perSecond / theirs[i].perSecond);
  const p99Ratios = ours.map((result, i) => result.p99 / Math.max(1, theirs[i].p99));
  const failed = (results) => results.reduce((sum, r) => sum + r.non2xx + r.errors + (r.mismatches ?? 0), 0);
  const med = (results, field) => median(results.map((r) => r[field]));
  return {
    case: name,
    'service/s': Math.round(med(ours, 'perSecond') * perRequest),
    'bare/s': Math.round(med(theirs, 'perSecond') * perRequest),
    'ratio med (min–max)': spread(ratios),
    'p99 ms service/bare': `${med(ours, 'p99')}/${med(theirs, 'p99')}`,
    'p99 ratio': spread(p99Ratios),
    'CPU ms/req service/bare': `${med(ours, 'cpuPerRequest').toFixed(2)}/${med(theirs, 'cpuPerRequest').toFixed(2)}`,
    'load generator CPU ms/req': `${med(ours, 'loadgenPerRequest').toFixed(2)}/${med(theirs, 'loadgenPerRequest').toFixed(2)}`,
    'machine busy % service/bare': `${(100 * med(ours, 'machineBusy')).toFixed(0)}/${(100 * med(theirs, 'machineBusy')).toFixed(0)}`,
    'non-2xx service/bare': `${failed(ours)}/${failed(theirs)}`,
    ...(backends
      ? {
          'PostgreSQL/Redis CPU ms/req service/bare': [ours, theirs]
            .map((results) =>
              ['postgres', 'redis']
                .map((name) => median(results.map((r) => r.backendPerRequest[name])).toFixed(3))
                .join('/'),
            )
            .join(' vs '),
        }
      : {}),
  };
}

/** Prints each process' peak RSS (VmHWM) in MB. */
export function printPeakRss(processes) {
  const line = Object.entries(processes)
    .map(([name, pid]) => `${name} ${peakRssMb(pid).toFixed(0)} MB`)
    .join(', ');
  console.log(`peak RSS: ${line}`);
}
