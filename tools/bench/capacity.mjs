#!/usr/bin/env node
// Capacity probe: what one request of each kind costs each shared resource, so the number of gateway and
// worker replicas one Redis primary and one PostgreSQL primary carry can be worked out on paper.
// Runs the three built apps as processes over a private Redis (so its CPU is theirs alone) and a database
// of its own (its backends are found by database name), drives each kind of traffic in turn, and reads
// CPU time from /proc for every process involved.  Usage: npm run build && node tools/bench/capacity.mjs
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import pg from 'pg';
import { openRuntime } from '@wms/platform';
import { createServices } from '../../apps/gateway/dist/services.js';
import autocannon from 'autocannon';
import { benchApiKey, freePort, prepareBenchEnv, startApp } from './lib.mjs';

/** The load runs in this process: only the apps', Redis's and PostgreSQL's CPU is measured, not ours. */
function load(options) {
  return new Promise((resolve, reject) => {
    autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const TICKS = 100; // clock ticks per second of /proc/<pid>/stat on Linux

function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS;
  } catch {
    return 0; // the process ended
  }
}

async function backendPids(client, database) {
  const { rows } = await client.query(
    'SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
    [database],
  );
  return rows.map((row) => row.pid);
}

/**
 * CPU of the database's backends over a phase. Pools open and close connections, so every backend is
 * sampled while the phase runs and its last reading kept; `excluded` backends (the set-up's own) are left out.
 */
async function postgresCpu(admin, database, excluded, work) {
  const start = new Map();
  const last = new Map();
  const sample = async () => {
    for (const pid of await backendPids(admin, database)) {
      const cpu = cpuMs(pid);
      if (!start.has(pid)) start.set(pid, cpu);
      if (cpu > 0) last.set(pid, cpu);
    }
  };
  await sample();
  // A backend first seen while the phase runs started during it: it counts from zero.
  for (const pid of start.keys()) start.set(pid, start.get(pid));
  const known = new Set(start.keys());
  let running = true;
  const sampler = (async () => {
    while (running) {
      await sample();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  const count = await work();
  running = false;
  await sampler;
  await sample();
  let total = 0;
  for (const [pid, cpu] of last) {
    if (excluded.has(pid)) continue;
    total += cpu - (known.has(pid) ? start.get(pid) : 0);
  }
  return { count, total };
}

async function measure(label, processes, admin, database, excluded, work) {
  const before = Object.fromEntries(Object.entries(processes).map(([name, pid]) => [name, cpuMs(pid)]));
  const { count, total } = await postgresCpu(admin, database, excluded, work);
  const row = { phase: label, units: count };
  for (const [name, pid] of Object.entries(processes))
    row[`${name} ms/unit`] = ((cpuMs(pid) - before[name]) / count).toFixed(3);
  row['postgres ms/unit'] = (total / count).toFixed(3);
  return row;
}

async function main() {
  const redisPort = 40000 + Math.floor(Math.random() * 10000);
  const redis = spawn(
    'redis-server',
    ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  );
  await new Promise((resolve) => setTimeout(resolve, 500));
  const bench = await prepareBenchEnv('capacity', {
    REDIS_URL: `redis://127.0.0.1:${redisPort}`,
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
  });
  const database = new URL(bench.config.databaseUrl).pathname.slice(1);
  const admin = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/postgres' });
  await admin.connect();
  const runtime = openRuntime(bench.config, { name: 'capacity-setup', redisRole: 'producer' });
  // The receiver is plain http on loopback, which production config (https only) refuses at registration.
  const services = createServices(runtime.db, { ...bench.config, nodeEnv: 'test' });
  const receiver = createServer((req, res) => req.resume().on('end', () => res.end('ok')));
  await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const apps = [];
  try {
    const { tenant, key } = await benchApiKey(services, 'capacity');
    await services.webhooks.create(
      { url: `http://127.0.0.1:${receiver.address().port}/hook`, events: ['stock.adjusted'] },
      tenant.id,
      null,
    );
    const port = freePort();
    const gateway = await startApp('gateway', bench.env, { port });
    const ingest = await startApp('ingest-worker', bench.env);
    const webhook = await startApp('webhook-worker', bench.env);
    apps.push(gateway, ingest, webhook);
    const processes = {
      gateway: gateway.child.pid,
      ingest: ingest.child.pid,
      webhook: webhook.child.pid,
      redis: redis.pid,
    };
    const base = `http://127.0.0.1:${port}/api/v1/integration/v1`;
    const headers = { 'x-api-key': key.rawKey, 'content-type': 'application/json' };
    const items = (round) =>
      JSON.stringify({
        items: Array.from({ length: 500 }, (_, i) => ({
          sku: `CAP-${round}-${i}`,
          name: `Item ${i}`,
          baseUomCode: 'EA',
        })),
      });
    await fetch(`${base}/items`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ sku: 'CAP-STOCK', name: 'x', baseUomCode: 'EA' }),
    });

    // The set-up's own connections (it appends the events) are not the apps' cost.
    const excluded = new Set(await backendPids(admin, database));
    const limited = await services.apiKeys.create(
      { name: 'capacity limited', scopes: ['read', 'write'], tenantId: tenant.id, rateLimitPerMinute: 10_000_000 },
      null,
    );
    const rows = [];
    rows.push(
      await measure('stock inquiry, unlimited key (request)', processes, admin, database, excluded, async () => {
        const result = await load({
          url: `${base}/stock?sku=CAP-STOCK&warehouseCode=MAIN`,
          headers,
          connections: 16,
          duration: SECONDS,
        });
        return result.requests.total;
      }),
    );
    rows.push(
      await measure('stock inquiry, rate-limited key (request)', processes, admin, database, excluded, async () => {
        const result = await load({
          url: `${base}/stock?sku=CAP-STOCK&warehouseCode=MAIN`,
          headers: { ...headers, 'x-api-key': limited.rawKey },
          connections: 16,
          duration: SECONDS,
        });
        return result.requests.total;
      }),
    );
    let round = 0;
    rows.push(
      await measure('bulk of 500 items (call)', processes, admin, database, excluded, async () => {
        const result = await load({
          url: `${base}/items/bulk`,
          method: 'POST',
          headers,
          connections: 4,
          duration: SECONDS,
          setupClient: (client) => client.setBody(items((round += 1))),
        });
        return result['2xx'];
      }),
    );
    const events = 3_000;
    rows.push(
      await measure('webhook delivery (event)', processes, admin, database, excluded, async () => {
        await runtime.db.sequelize.transaction(async (transaction) => {
          const [[{ pid }]] = await runtime.db.sequelize.query('SELECT pg_backend_pid() AS pid', { transaction });
          excluded.add(pid);
          for (let i = 0; i < events; i += 1)
            await services.events.append(transaction, {
              tenantId: tenant.id,
              event: 'stock.adjusted',
              data: {
                warehouseCode: 'MAIN',
                locationCode: 'A',
                sku: 'CAP',
                lotNo: null,
                qtyDelta: 1,
                qtyOnHand: i,
                reason: 'x',
              },
            });
        });
        for (;;) {
          const [[{ n }]] = await runtime.db.sequelize.query(
            "SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'succeeded'",
          );
          if (n >= events) return n;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }),
    );
    console.table(rows);
  } finally {
    for (const app of apps) await app.stop();
    receiver.close();
    await runtime.close();
    await admin.end();
    await bench.cleanup().catch(() => undefined);
    redis.kill('SIGKILL');
  }
}

await main();
