// Instructions per inquiry, counted by valgrind's callgrind: user-space instructions of one server process
// (the gateway, or the bare Express + `pg` server of the documents bench) over N requests after a long
// warm-up, TurboFan's compilation left out. Unlike requests/s, which move by several per cent between runs
// of the same code, the count repeats within about 2 %: it tells whether a change to the hot path saves
// work, before `npm run bench` measures what that is worth. Not a target: the kernel's share (socket
// writes) is not counted, and the server runs some 50 times slower under valgrind. Run it alone: two counts
// running side by side both come out higher, likely because a server that is not kept busy does more per
// request (more wake-ups, fewer requests per turn of its event loop).
//
//   npm run bench:instructions -- [stock|order] [gateway|bare ...]     (default: stock gateway bare)
//   npm run bench:instructions -- guard                                  the guard bench's trivial GET, guarded
//                                                                         and unguarded (its two servers)
//   INSTRUCTIONS_WARMUP (25000) and INSTRUCTIONS_REQUESTS (3000) set the request counts; INSTRUCTIONS_KEEP=1
//   keeps the callgrind files (for callgrind_annotate) and prints where; INSTRUCTIONS_GUARD_LIMIT (1000000)
//   is the guard key's limit per minute, 0 for a key without a limit (no limiter call).
import { execFileSync, fork, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openRuntime } from '@wms/platform';
import { createServices } from '../../apps/gateway/dist/services.js';
import { arrangeStock } from './documents.bench.mjs';
import { benchApiKey, freePort, prepareBenchEnv, startHelper, waitForReady } from './lib.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const WARMUP = Number(process.env.INSTRUCTIONS_WARMUP ?? 25_000);
const REQUESTS = Number(process.env.INSTRUCTIONS_REQUESTS ?? 3_000);
const GUARD_LIMIT = Number(process.env.INSTRUCTIONS_GUARD_LIMIT ?? 1_000_000);
const CONNECTIONS = 8;
const args = process.argv.slice(2);
const inquiry = args.find((arg) => arg === 'stock' || arg === 'order' || arg === 'guard') ?? 'stock';
const servers = args.filter((arg) => ['gateway', 'bare', 'guarded', 'unguarded'].includes(arg));
if (!servers.length) servers.push(...(inquiry === 'guard' ? ['guarded', 'unguarded'] : ['gateway', 'bare']));

const bench = await prepareBenchEnv('instructions', { LOG_LEVEL: 'info' });
const runtime = openRuntime(bench.config, { name: 'bench-instructions', redisRole: 'producer' });
const services = createServices(runtime.db, bench.config);
const out = mkdtempSync(join(tmpdir(), 'wms-callgrind-'));
const started = [];
try {
  const { tenant, key } = await benchApiKey(services, 'instructions');
  // The guard bench's key: read scope and a rate limit, so the Redis limiter decides every request (unless 0).
  const guardKey =
    inquiry === 'guard'
      ? await services.apiKeys.create(
          { name: 'instructions-guard', scopes: ['read'], rateLimitPerMinute: GUARD_LIMIT, tenantId: tenant.id },
          null,
        )
      : null;
  await arrangeStock(runtime, services, tenant.id);
  const [created] = await services.orders.createOrders({ tenantId: tenant.id }, [
    {
      warehouseCode: 'MAIN',
      customerCode: 'BENCH-CUST',
      referenceNo: 'BENCH-INSTRUCTIONS',
      priority: 1,
      lines: [{ lineNo: 1, sku: 'BENCH-LOT', uomCode: 'EA', qtyOrdered: 2 }],
    },
  ]);
  const orderNo = created.data.orderNo;
  const loadgen = await startHelper('loadgen');
  started.push({ stop: () => loadgen.stop() });
  const callgrind = (name) => [
    '--tool=callgrind',
    '--instr-atstart=no',
    '--smc-check=all-non-file',
    `--callgrind-out-file=${join(out, name)}.%p`,
  ];
  for (const server of servers) {
    let child;
    let base;
    if (server === 'gateway') {
      const port = freePort();
      child = spawn('valgrind', [...callgrind(server), process.execPath, join(root, 'apps/gateway/dist/main.js')], {
        env: { ...bench.env, PORT: String(port) },
        stdio: 'ignore',
      });
      await waitForReady(`http://127.0.0.1:${port}/health/ready`, 600_000);
      base = `http://127.0.0.1:${port}/api/v1/integration/v1`;
    } else if (server === 'guarded' || server === 'unguarded') {
      child = fork(join(root, 'tools/bench/processes/guard-server.mjs'), [server === 'guarded' ? 'guarded' : 'bare'], {
        execPath: 'valgrind',
        execArgv: [...callgrind(server), process.execPath],
        env: bench.env,
        stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
      });
      const ready = await new Promise((resolve) => child.once('message', resolve));
      base = `http://127.0.0.1:${ready.port}/api/v1/integration/v1`;
    } else {
      child = fork(join(root, 'tools/bench/processes/bare-server.mjs'), [], {
        execPath: 'valgrind',
        execArgv: [...callgrind(server), process.execPath],
        env: { ...bench.env, POOL_MAX: String(bench.config.databasePoolMax), TENANT_ID: tenant.id },
        stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
      });
      const ready = await new Promise((resolve) => child.once('message', resolve));
      base = `http://127.0.0.1:${ready.port}`;
    }
    started.push({ stop: () => child.kill('SIGKILL') });
    const headers = { 'x-api-key': (guardKey ?? key).rawKey, 'content-type': 'application/json' };
    const url =
      inquiry === 'guard'
        ? `${base}/ping`
        : inquiry === 'stock'
          ? `${base}/stock?sku=BENCH-LOT&warehouseCode=MAIN`
          : `${base}/orders/${orderNo}`;
    const run = async (amount) => {
      const result = await loadgen.call({ options: { url, headers, connections: CONNECTIONS, amount, timeout: 60 } });
      if (result.non2xx || result.errors)
        throw new Error(`${server}: ${result.non2xx} non-2xx, ${result.errors} errors`);
    };
    await run(WARMUP);
    execFileSync('callgrind_control', ['-i', 'on', String(child.pid)], { stdio: 'ignore' });
    await run(REQUESTS);
    execFileSync('callgrind_control', ['-i', 'off', String(child.pid)], { stdio: 'ignore' });
    execFileSync('callgrind_control', ['-d', String(child.pid)], { stdio: 'ignore' });
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const { total, compiler } = countedInstructions(out, `${server}.${child.pid}`);
    const what = inquiry === 'guard' ? 'trivial GET' : `${inquiry} inquiry`;
    const side = server === 'guarded' && GUARD_LIMIT === 0 ? 'guarded (key without a limit)' : server;
    console.log(
      `${what}, ${side}: ${((total - compiler) / REQUESTS / 1e3).toFixed(0)} k instructions per request ` +
        `(${(total / REQUESTS / 1e3).toFixed(0)} k with TurboFan's compilation), ${REQUESTS} requests after ${WARMUP}`,
    );
    child.kill('SIGKILL');
  }
} finally {
  for (const process of started.reverse()) await process.stop();
  await runtime.close();
  await bench.cleanup();
  if (process.env.INSTRUCTIONS_KEEP) console.log(`callgrind files kept in ${out}`);
  else rmSync(out, { recursive: true, force: true });
}

/**
 * Instructions counted in the dumps of one process, and how many of them TurboFan's compiler ran: it still
 * compiles now and then after any warm-up under valgrind, on both sides alike, so it is left out of the figure.
 */
function countedInstructions(dir, prefix) {
  let total = 0;
  let compiler = 0;
  for (const file of readdirSync(dir).filter((name) => name.startsWith(prefix))) {
    const path = join(dir, file);
    const counted = /^totals: (\d+)/m.exec(readFileSync(path, 'utf8'));
    // The file named after the process alone stays empty: the dump goes to its numbered parts.
    if (!counted) continue;
    total += Number(counted[1]);
    const annotated = execFileSync('callgrind_annotate', ['--threshold=100', path], { maxBuffer: 1 << 28 }).toString();
    for (const line of annotated.split('\n')) {
      const match = /^\s*([\d,]+) .*v8::internal::compiler::/.exec(line);
      if (match) compiler += Number(match[1].replaceAll(',', ''));
    }
  }
  return { total, compiler };
}
