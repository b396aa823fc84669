// The API-key guard's cost: requests/s of one trivial integration GET through the full guard (cached
// verification, IP/origin checks, the Redis sliding-window limit with a high limit, request log) against
// the same handler without the guard. Each side is a process of its own (processes/guard-server.mjs),
// the load generator another; the sides alternate over several rounds. The goal is read from the first
// case; the second, a key without a limit (no Redis call), tells the limiter's round trip apart from the
// rest of the guard.
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openRuntime } from '@wms/platform';
import { createServices } from '../../apps/gateway/dist/services.js';
import { backendReaders } from './backends.mjs';
import { ROUNDS, compareRounds, prepareBenchEnv, printPeakRss, startHelper } from './lib.mjs';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 16;
const PATH = '/api/v1/integration/v1/ping';

export default async function guardBench() {
  // Both sides at the production log level, their lines to a file.
  const bench = await prepareBenchEnv('guard', { LOG_LEVEL: 'info' });
  const logFile = join(tmpdir(), `wms-bench-guard-${process.pid}.log`);
  const runtime = openRuntime(bench.config, { name: 'bench-guard', redisRole: 'producer' });
  const services = createServices(runtime.db, bench.config);
  const started = [];
  try {
    const key = await services.apiKeys.create({ name: 'bench', scopes: ['read'], rateLimitPerMinute: 1_000_000 }, null);
    const unlimited = await services.apiKeys.create(
      { name: 'bench-unlimited', scopes: ['read'], rateLimitPerMinute: 0 },
      null,
    );
    const guarded = await startHelper('guard-server', bench.env, ['guarded'], { logFile });
    started.push(guarded);
    const bare = await startHelper('guard-server', bench.env, ['bare'], { logFile });
    started.push(bare);
    const loadgen = await startHelper('loadgen');
    started.push(loadgen);
    const target = (helper, headers = {}) => ({
      pid: helper.pid,
      load: {
        options: {
          url: `http://127.0.0.1:${helper.ready.port}${PATH}`,
          headers,
          connections: CONNECTIONS,
          duration: SECONDS,
        },
      },
    });
    const withGuard = target(guarded, { 'x-api-key': key.rawKey });
    const withUnlimitedKey = target(guarded, { 'x-api-key': unlimited.rawKey });
    const withoutGuard = target(bare);
    const cases = [
      ['trivial GET, guarded / unguarded', withGuard, withoutGuard],
      ['  the same, key without a limit', withUnlimitedKey, withoutGuard],
    ];
    // Warm-up: caches, JIT, connection pools.
    for (const side of [withGuard, withUnlimitedKey, withoutGuard])
      await loadgen.call({ options: { ...side.load.options, duration: 1 } });
    // What the guard costs beside its own process: the rate limit's Redis calls, the request log's rows.
    const backends = await backendReaders(bench.config);
    const rows = [];
    try {
      for (const [name, service, baseline] of cases)
        rows.push(await compareRounds(name, loadgen, service, baseline, { backends }));
    } finally {
      await backends.close();
    }
    console.log(
      `${ROUNDS} rounds per case, sides alternating; ${SECONDS} s per side and round, ${CONNECTIONS} connections` +
        `; the goal (>= 0.85) is read from the first case`,
    );
    console.table(rows);
    printPeakRss({ guarded: guarded.pid, unguarded: bare.pid });
    if (rows.some((row) => !row['non-2xx service/bare'].startsWith('0/')))
      console.log('WARNING: some guarded requests were not 2xx');
  } finally {
    for (const helper of started.reverse()) await helper.stop();
    await runtime.close();
    await bench.cleanup();
  }
}
