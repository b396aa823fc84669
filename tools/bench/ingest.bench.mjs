// Bulk ingest end to end (client → gateway → BullMQ → ingest worker → PostgreSQL → answer) against the
// physical limit here: the same rows upserted with `pg` alone, one `INSERT … SELECT FROM unnest(…)` per
// batch. The gateway, the ingest worker, the raw upsert (processes/raw-upsert.mjs) and the load generator
// (processes/loadgen.mjs) are processes of their own; the apps run at the production log level (their
// lines go to a file). Rounds alternate the sides; figures as median (min–max). Also single upserts/s
// through the gateway. Loopback only; every phase is bounded in requests.
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openRuntime } from '@wms/platform';
import { createServices } from '../../apps/gateway/dist/services.js';
import { postgresSampler } from './backends.mjs';
import {
  ROUNDS,
  freePort,
  measureCpu,
  median,
  peakRssMb,
  prepareBenchEnv,
  startApp,
  startHelper,
  withMachineBusy,
} from './lib.mjs';

const BATCH = 500;
const BATCHES = Number(process.env.BENCH_INGEST_BATCHES ?? 80); // 40,000 items per side and round
const CLIENTS = 4;
// autocannon ends a run on its next sample tick (1 s by default): a short tick keeps a counted run's
// duration true to within a few milliseconds.
const SAMPLE_MS = 10;

export default async function ingestBench() {
  const port = freePort();
  const bench = await prepareBenchEnv('ingest', {
    BULK_SYNC_TIMEOUT_MS: '60000',
    INGEST_CONCURRENCY: '4',
    LOG_LEVEL: 'info',
  });
  const runtime = openRuntime(bench.config, { name: 'bench-ingest', redisRole: 'producer' });
  const services = createServices(runtime.db, bench.config);
  const postgres = await postgresSampler(bench.config.databaseUrl);
  const logFile = join(tmpdir(), `wms-bench-ingest-${process.pid}.log`);
  const started = [];
  try {
    const tenant = await services.tenants.findByCode('DEFAULT');
    const { rawKey } = await services.apiKeys.create(
      { name: 'bench', scopes: ['read', 'write'], tenantId: tenant.id },
      null,
    );
    const gateway = await startApp('gateway', bench.env, { port, logFile });
    started.push(gateway);
    const worker = await startApp('ingest-worker', bench.env, { logFile });
    started.push(worker);
    const raw = await startHelper('raw-upsert', { ...bench.env, TENANT_ID: tenant.id });
    started.push(raw);
    const loadgen = await startHelper('loadgen');
    started.push(loadgen);
    const url = `http://127.0.0.1:${port}/api/v1/integration/v1`;
    const headers = { 'x-api-key': rawKey, 'content-type': 'application/json' };

    // Bulk calls: a fresh 500-item body per request (built in the load generator, as the raw side builds
    // its rows), every answer checked for 200 and all 500 entries created.
    const bulkPhase = async (prefix, batches) => {
      const result = await loadgen.call({
        options: {
          url: `${url}/items/bulk`,
          headers,
          connections: CLIENTS,
          amount: batches,
          timeout: 60,
          sampleInt: SAMPLE_MS,
        },
        body: { kind: 'items', prefix, size: BATCH },
        verify: `"created":${BATCH},`,
      });
      if (result.non2xx || result.errors || result.timeouts || result.mismatches || result.total !== batches)
        throw new Error(`bulk phase ${prefix}: ${JSON.stringify(result)}`);
      return (batches * BATCH) / result.seconds;
    };
    const rawPhase = async (prefix, batches) =>
      (await raw.call({ cmd: 'run', prefix, batches, clients: CLIENTS, size: BATCH })).perSecond;
    // CPU ms per 500-item call of each process named, and of the bench database's PostgreSQL backends;
    // how busy the machine's cores were (a side that leaves them idle waits between its hops).
    const costed = async (pids, work) => {
      const { result: measured, busy } = await withMachineBusy(() => measureCpu(pids, () => postgres.measure(work)));
      const {
        result: { result, postgres: pgMs },
        cpu,
      } = measured;
      const perCall = Object.fromEntries(Object.entries(cpu).map(([name, ms]) => [name, ms / BATCHES]));
      return { rate: result, cpu: { ...perCall, postgres: pgMs / BATCHES }, busy };
    };

    // Warm-up: JIT, connection pools, prepared plans.
    await rawPhase('warm-pg', 8);
    await bulkPhase('warm-e2e', 8);

    const rounds = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const rawSide = () => costed({ raw: raw.pid }, () => rawPhase(`pg-${round}`, BATCHES));
      const e2eSide = () =>
        costed({ gateway: gateway.pid, worker: worker.pid, loadgen: loadgen.pid }, () =>
          bulkPhase(`e2e-${round}`, BATCHES),
        );
      // Alternating order, so drift on the shared cores hits both sides alike.
      let rawResult;
      let e2eResult;
      if (round % 2 === 0) {
        rawResult = await rawSide();
        e2eResult = await e2eSide();
      } else {
        e2eResult = await e2eSide();
        rawResult = await rawSide();
      }
      rounds.push({ raw: rawResult, e2e: e2eResult, ratio: e2eResult.rate / rawResult.rate });
    }
    await checkRows(bench.config.databaseUrl, tenant.id, ROUNDS * BATCHES * BATCH);
    // BENCH_INGEST_SINGLE=0 leaves the single upserts out (a CPU profile of the bulk path alone).
    const single =
      process.env.BENCH_INGEST_SINGLE === '0'
        ? undefined
        : await loadgen.call({
            options: { url: `${url}/items`, headers, connections: 8, amount: 3000, sampleInt: SAMPLE_MS },
            body: { kind: 'item', prefix: 'single' },
          });
    report(rounds, single, { gateway, worker, raw });
  } finally {
    for (const app of started.reverse()) await app.stop();
    await postgres.close();
    await runtime.close();
    await bench.cleanup();
  }
}

/** Every bulk item is in the table: the answers were not just fast, they were true. */
async function checkRows(databaseUrl, tenantId, expected) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query(
      "SELECT count(*)::int AS n FROM items WHERE tenant_id = $1 AND sku LIKE 'e2e-%'",
      [tenantId],
    );
    if (rows[0].n !== expected) throw new Error(`bulk phases wrote ${rows[0].n} items, expected ${expected}`);
  } finally {
    await client.end();
  }
}

function report(rounds, single, processes) {
  const spread = (values, digits = 0) => {
    const fixed = (value) => value.toFixed(digits);
    return `${fixed(median(values))} (${fixed(Math.min(...values))}–${fixed(Math.max(...values))})`;
  };
  const cpu = (side, name) => median(rounds.map((round) => round[side].cpu[name])).toFixed(2);
  console.log(
    `${rounds.length} rounds of ${BATCHES} bulks of ${BATCH} items, ${CLIENTS} clients each side, median (min–max):`,
  );
  console.log(`  raw pg unnest upsert: ${spread(rounds.map((round) => round.raw.rate))} items/s`);
  console.log(
    `  bulk end to end via gateway + ingest worker: ${spread(rounds.map((round) => round.e2e.rate))} items/s`,
  );
  console.log(
    `  ratio bulk end to end / raw pg: ${spread(
      rounds.map((round) => round.ratio),
      2,
    )} (target >= 0.70)`,
  );
  console.log(
    `  CPU ms per ${BATCH}-item call: gateway ${cpu('e2e', 'gateway')}, worker ${cpu('e2e', 'worker')}, PostgreSQL ${cpu('e2e', 'postgres')}, load generator ${cpu('e2e', 'loadgen')}; raw side: PostgreSQL ${cpu('raw', 'postgres')}, client ${cpu('raw', 'raw')}`,
  );
  const busy = (side) => (100 * median(rounds.map((round) => round[side].busy))).toFixed(0);
  console.log(`  machine busy %: end to end ${busy('e2e')}, raw side ${busy('raw')}`);
  if (single)
    console.log(
      `single upserts via gateway (8 connections): ${single.perSecond.toFixed(0)} req/s, p99 ${single.p99} ms, non-2xx ${single.non2xx + single.errors}`,
    );
  console.log(
    `peak RSS: ${Object.entries(processes)
      .map(([name, app]) => `${name} ${peakRssMb(app.pid).toFixed(0)} MB`)
      .join(', ')}`,
  );
}
