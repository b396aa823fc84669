// Fair bulk jobs: tenant B's 10-item synchronous bulk call right after tenant A queued 200 asynchronous
// bulk jobs of 500 items (`Prefer: respond-async`), against the same call with nothing queued, in the same
// run. The gateway and the ingest worker are processes of their own; rounds alternate which case goes first,
// and each ends with the queue drained. The same call while another tenant's file import runs is the imports
// bench's.
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openRuntime } from '@wms/platform';
import { createServices } from '../../apps/gateway/dist/services.js';
import { ROUNDS, benchApiKey, freePort, median, prepareBenchEnv, spread, startApp } from './lib.mjs';

const FLOOD_JOBS = 200;
const FLOOD_SIZE = 500;
/** Calls of tenant B per round with nothing queued; that case's figure is their median. */
const CALLS = 3;
/** Tenant A's calls in flight while it queues its jobs. */
const FLOOD_CONNECTIONS = 8;

const itemsOf = (prefix, size) =>
  Array.from({ length: size }, (_unused, index) => ({
    sku: `${prefix}-${index}`,
    name: `Bench item ${prefix}-${index}`,
    baseUomCode: 'EA',
  }));

export default async function ingestFairnessBench() {
  const port = freePort();
  const bench = await prepareBenchEnv('ingest_fairness', {
    BULK_SYNC_TIMEOUT_MS: '60000',
    INGEST_CONCURRENCY: '4',
    LOG_LEVEL: 'info',
  });
  const runtime = openRuntime(bench.config, { name: 'bench-ingest-fairness', redisRole: 'producer' });
  const services = createServices(runtime.db, bench.config);
  const db = new pg.Client({ connectionString: bench.config.databaseUrl });
  await db.connect();
  const logFile = join(tmpdir(), `wms-bench-ingest-fairness-${process.pid}.log`);
  const started = [];
  try {
    const { key: keyA } = await benchApiKey(services, 'bench-fairness-a');
    const tenantB = await services.tenants.create({ code: 'BENCH-B', name: 'Bench tenant B' });
    const keyB = await services.apiKeys.create(
      { name: 'bench-fairness-b', scopes: ['read', 'write'], tenantId: tenantB.id },
      null,
    );
    started.push(await startApp('gateway', bench.env, { port, logFile }));
    started.push(await startApp('ingest-worker', bench.env, { logFile }));
    const url = `http://127.0.0.1:${port}/api/v1/integration/v1/items/bulk`;
    const post = async (key, items, respondAsync) => {
      const answer = await fetch(url, {
        method: 'POST',
        headers: {
          'x-api-key': key,
          'content-type': 'application/json',
          ...(respondAsync ? { prefer: 'respond-async' } : {}),
        },
        body: JSON.stringify({ items }),
      });
      await answer.arrayBuffer();
      return answer.status;
    };
    let calls = 0;
    /** Tenant B's synchronous call, timed; it must answer 200. */
    const callB = async () => {
      const items = itemsOf(`B-${(calls += 1)}`, 10);
      const t0 = performance.now();
      const status = await post(keyB.rawKey, items, false);
      if (status !== 200) throw new Error(`tenant B's bulk call answered ${status}`);
      return performance.now() - t0;
    };
    const drained = async () => {
      for (;;) {
        const { rows } = await db.query(
          `SELECT count(*)::int AS n FROM bulk_jobs WHERE state NOT IN ('completed', 'failed')`,
        );
        if (rows[0].n === 0) return;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    };
    let floods = 0;
    /** Tenant A queues FLOOD_JOBS async jobs (every one answered 202), then B calls; the queue drains after. */
    const flooded = async () => {
      const flood = (floods += 1);
      let next = 0;
      const sender = async () => {
        while (next < FLOOD_JOBS) {
          const job = (next += 1);
          const status = await post(keyA.rawKey, itemsOf(`A-${flood}-${job}`, FLOOD_SIZE), true);
          if (status !== 202) throw new Error(`tenant A's async bulk call answered ${status}`);
        }
      };
      await Promise.all(Array.from({ length: FLOOD_CONNECTIONS }, sender));
      const ms = await callB();
      await drained();
      return ms;
    };
    const alone = async () => {
      const times = [];
      for (let call = 0; call < CALLS; call += 1) times.push(await callB());
      return median(times);
    };

    await alone();
    const rounds = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      if (round % 2 === 0) rounds.push({ alone: await alone(), flooded: await flooded() });
      else {
        const afterFlood = await flooded();
        rounds.push({ alone: await alone(), flooded: afterFlood });
      }
    }
    const ms = (values) => {
      const fixed = (value) => value.toFixed(0);
      return `${fixed(median(values))} (${fixed(Math.min(...values))}–${fixed(Math.max(...values))}) ms`;
    };
    console.log(
      `${rounds.length} rounds (one flood each; ${CALLS} calls alone, their median), median (min–max) over the rounds:`,
    );
    console.log(
      `  tenant B's 10-item synchronous bulk call right after tenant A queued ${FLOOD_JOBS} async jobs of ` +
        `${FLOOD_SIZE} items: ${ms(rounds.map((round) => round.flooded))} (target ≤ 200 ms)`,
    );
    console.log(`  the same call with nothing queued: ${ms(rounds.map((round) => round.alone))}`);
    console.log(`  ratio after the flood / alone: ${spread(rounds.map((round) => round.flooded / round.alone))}`);
  } finally {
    for (const app of started.reverse()) await app.stop();
    await db.end();
    await runtime.close();
    await bench.cleanup();
  }
}
