// Bulk ingest end to end (client → gateway → BullMQ → ingest worker → PostgreSQL → answer) against the
// physical limit here: the same rows written by a plain multi-row upsert with `pg` alone. Also single
// upserts/s through the gateway. Loopback only; every phase is bounded in requests.
import pg from 'pg';
import { createServices, openRuntime } from '@wms/shared';
import autocannon from 'autocannon';
import { cpuMs, freePort, measureCpu, prepareBenchEnv, ratio, startApp } from './lib.mjs';

/** Runs autocannon in this process (the raw side's client runs here too); resolves with its result. */
function load(options) {
  return new Promise((resolve, reject) => {
    autocannon({ connections: 16, ...options }, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

const BATCH = 500;
const BATCHES = 80; // 40,000 items per measured phase
const ROUNDS = 3;
const CLIENTS = 4;
// autocannon ends a run on its next sample tick (1 s by default): a short tick keeps a counted run's
// duration true to within a few milliseconds.
const SAMPLE_MS = 10;

const item = (sku) => ({
  sku,
  name: `Bench item ${sku}`,
  baseUomCode: 'EA',
  category: 'bench',
  tracking: 'lot',
  weightKg: 1.25,
});
const batchOf = (prefix, n) => Array.from({ length: BATCH }, (_, i) => item(`${prefix}-${n}-${i}`));

/**
 * CPU ms the bench database's PostgreSQL backends spend while `work` runs. Pools open and close
 * connections, so every backend is sampled while it runs and its last reading kept.
 */
async function postgresCpu(admin, database, work) {
  const start = new Map();
  const last = new Map();
  const sample = async () => {
    const { rows } = await admin.query(
      'SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
      [database],
    );
    for (const { pid } of rows) {
      const cpu = cpuMs(pid);
      if (Number.isNaN(cpu)) continue;
      if (!start.has(pid)) start.set(pid, known ? 0 : cpu);
      last.set(pid, cpu);
    }
  };
  let known = false;
  await sample();
  known = true;
  let running = true;
  const sampler = (async () => {
    while (running) {
      await sample();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  const result = await work();
  running = false;
  await sampler;
  await sample();
  let total = 0;
  for (const [pid, cpu] of last) total += cpu - start.get(pid);
  return { result, postgres: total };
}

/** Runs `batches` raw statements over `clients` concurrent loops; returns items per second. */
async function drive(clients, batches, run) {
  let next = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      for (let n = next++; n < batches; n = next++) await run(n);
    }),
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return (batches * BATCH) / seconds;
}

async function rawPgUpsert(pool, tenantId, rows) {
  const values = [];
  const params = [tenantId];
  for (const row of rows) {
    const at = params.length;
    values.push(`($1, $${at + 1}, $${at + 2}, $${at + 3}, $${at + 4}, $${at + 5}, $${at + 6})`);
    params.push(row.sku, row.name, row.baseUomCode, row.category, row.tracking, row.weightKg);
  }
  await pool.query(
    `INSERT INTO items (tenant_id, sku, name, base_uom_code, category, tracking, weight_kg) VALUES ${values.join(',')}
     ON CONFLICT (tenant_id, sku) DO UPDATE SET name = EXCLUDED.name, base_uom_code = EXCLUDED.base_uom_code,
       category = EXCLUDED.category, tracking = EXCLUDED.tracking, weight_kg = EXCLUDED.weight_kg, updated_at = now()
     RETURNING id, (xmax = 0) AS created`,
    params,
  );
}

export default async function ingestBench() {
  const port = freePort();
  const bench = await prepareBenchEnv('ingest', { BULK_SYNC_TIMEOUT_MS: '60000', INGEST_CONCURRENCY: '4' });
  const runtime = openRuntime(bench.config, { name: 'bench-ingest', redisRole: 'producer' });
  const services = createServices(runtime.db, bench.config);
  const tenant = await services.tenants.findByCode('DEFAULT');
  const { rawKey } = await services.apiKeys.create(
    { name: 'bench', scopes: ['read', 'write'], tenantId: tenant.id },
    null,
  );
  const pool = new pg.Pool({ connectionString: bench.config.databaseUrl, max: CLIENTS });
  const database = new URL(bench.config.databaseUrl).pathname.slice(1);
  const admin = new pg.Client({ connectionString: bench.config.databaseUrl });
  await admin.connect();
  const gateway = await startApp('gateway', bench.env, { port });
  const worker = await startApp('ingest-worker', { ...bench.env, LOG_LEVEL: process.env.BENCH_WORKER_LOG ?? 'warn' });
  const url = `http://127.0.0.1:${port}/api/v1/integration/v1`;
  const headers = { 'x-api-key': rawKey, 'content-type': 'application/json' };

  // Bulk calls through autocannon, as the other benches: a fresh 500-item body per request (built in the
  // client, as the raw side builds its rows), every answer checked for 200 and all 500 entries created.
  const bulkPhase = async (prefix, batches) => {
    let n = 0;
    const started = process.hrtime.bigint();
    const result = await load({
      url: `${url}/items/bulk`,
      connections: CLIENTS,
      amount: batches,
      timeout: 60,
      sampleInt: SAMPLE_MS,
      requests: [
        {
          method: 'POST',
          headers,
          setupRequest: (request) => ({ ...request, body: JSON.stringify({ items: batchOf(prefix, n++) }) }),
        },
      ],
      verifyBody: (body) => body.includes(`"created":${BATCH},`),
    });
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    if (result.non2xx || result.errors || result.timeouts || result.mismatches || result.requests.total !== batches) {
      throw new Error(
        `bulk phase ${prefix}: ${result.requests.total} answers, non-2xx ${result.non2xx}, errors ${result.errors}, unexpected bodies ${result.mismatches}`,
      );
    }
    return (batches * BATCH) / seconds;
  };

  try {
    // Warm-up: JIT, connection pools, prepared plans.
    await drive(CLIENTS, 4, (n) => rawPgUpsert(pool, tenant.id, batchOf('warm-pg', n)));
    await bulkPhase('warm-e2e', 8);

    // Interleaved rounds, so drift on the shared cores hits both sides alike. CPU per 500-item call is read
    // from /proc for the gateway, the worker and the database's backends (the shared Redis serves others too).
    const rawRounds = [];
    const e2eRounds = [];
    const cpu = { gateway: 0, worker: 0, postgres: 0, rawPostgres: 0, rawClient: 0 };
    for (let round = 0; round < ROUNDS; round += 1) {
      const raw = await postgresCpu(admin, database, () =>
        measureCpu({ client: process.pid }, () =>
          drive(CLIENTS, BATCHES, (n) => rawPgUpsert(pool, tenant.id, batchOf(`pg-${round}`, n))),
        ),
      );
      rawRounds.push(raw.result.result);
      cpu.rawPostgres += raw.postgres;
      cpu.rawClient += raw.result.cpu.client;
      const e2e = await postgresCpu(admin, database, () =>
        measureCpu({ gateway: gateway.child.pid, worker: worker.child.pid }, () => bulkPhase(`e2e-${round}`, BATCHES)),
      );
      e2eRounds.push(e2e.result.result);
      cpu.gateway += e2e.result.cpu.gateway;
      cpu.worker += e2e.result.cpu.worker;
      cpu.postgres += e2e.postgres;
    }
    const perCall = (ms) => (ms / (ROUNDS * BATCHES)).toFixed(2);
    // Every bulk item is in the table: the answers were not just fast, they were true.
    const { rows } = await pool.query(
      "SELECT count(*)::int AS n FROM items WHERE tenant_id = $1 AND sku LIKE 'e2e-%'",
      [tenant.id],
    );
    if (rows[0].n !== ROUNDS * BATCHES * BATCH)
      throw new Error(`bulk phases wrote ${rows[0].n} items, expected ${ROUNDS * BATCHES * BATCH}`);
    const mean = (values) => values.reduce((sum, value) => sum + value, 0) / values.length;
    const raw = mean(rawRounds);
    const e2e = mean(e2eRounds);
    const show = (values) => values.map((value) => value.toFixed(0)).join(', ');

    let counter = 0;
    const single = await load({
      url: `${url}/items`,
      connections: 8,
      amount: 3000,
      sampleInt: SAMPLE_MS,
      requests: [
        {
          method: 'POST',
          headers,
          setupRequest: (request) => ({ ...request, body: JSON.stringify(item(`single-${counter++}`)) }),
        },
      ],
    });
    const non2xx = single.non2xx + single.errors;
    const singlePerSecond = single.requests.total / single.duration;

    console.log(
      `raw pg multi-row upsert (${CLIENTS} clients, ${BATCH}/statement): ${raw.toFixed(0)} items/s  (rounds ${show(rawRounds)})`,
    );
    console.log(
      `bulk end to end via gateway + ingest worker (${CLIENTS} clients, ${BATCH}/request): ${e2e.toFixed(0)} items/s  (rounds ${show(e2eRounds)})`,
    );
    console.log(
      `single upserts via gateway (8 connections): ${singlePerSecond.toFixed(0)} req/s, p99 ${single.latency.p99} ms, non-2xx ${non2xx}`,
    );
    console.log(
      `ratio bulk end to end / raw pg: ${ratio(e2e, raw)} (target >= 0.50; per round ${rawRounds.map((value, i) => ratio(e2eRounds[i], value)).join(', ')})`,
    );
    console.log(`ratio single upserts / raw pg items: ${ratio(singlePerSecond, raw)}`);
    console.log(
      `CPU ms per ${BATCH}-item call: gateway ${perCall(cpu.gateway)}, worker ${perCall(cpu.worker)}, PostgreSQL ${perCall(cpu.postgres)}; raw side: PostgreSQL ${perCall(cpu.rawPostgres)}, client ${perCall(cpu.rawClient)}`,
    );
    console.log(
      'note: 2 shared cores; gateway, worker, PostgreSQL, Redis and the clients compete for them, so figures vary by ±15 % between runs',
    );
  } finally {
    await worker.stop();
    await gateway.stop();
    await pool.end();
    await admin.end();
    await runtime.close();
    await bench.cleanup();
  }
}
