// What tracing costs: the stock inquiry and a bulk call through the gateway (and the ingest worker), with
// tracing off and with tracing on at a 10 % sample ratio exporting to a local OTLP receiver, side by side in
// one run. Each side is its own gateway and ingest worker over a database and Redis prefix of its own, both
// started as tools/entrypoint.sh starts them (the tracing bootstrap loaded with --import; off, it does
// nothing). The receiver (processes/receiver.mjs, 204 to every POST) and the load generator are processes of
// their own; rounds alternate the sides. BENCH_TRACING_SECONDS (inquiry) and BENCH_TRACING_BULKS (bulk calls
// per round) bound the load.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openRuntime } from '@wms/platform';
import { createServices } from '../../apps/gateway/dist/services.js';
import { ROUNDS, compareRounds, freePort, prepareBenchEnv, startApp, startHelper } from './lib.mjs';

const SECONDS = Number(process.env.BENCH_TRACING_SECONDS ?? 5);
const BULKS = Number(process.env.BENCH_TRACING_BULKS ?? 40);
const BULK_SIZE = 100;
const INQUIRY_SKU = 'BENCH-TRACED';
const CONNECTIONS = 16;
const BULK_CLIENTS = 4;
const bootstrap = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'libs/shared/platform/dist/tracing/register.js',
);

/** One side: its own database and Redis prefix, gateway and ingest worker, and a key. */
async function startSide(name, tracing) {
  const bench = await prepareBenchEnv(name, { BULK_SYNC_TIMEOUT_MS: '60000', ...tracing });
  const runtime = openRuntime(bench.config, { name: `bench-${name}`, redisRole: 'producer' });
  const services = createServices(runtime.db, bench.config);
  const tenant = await services.tenants.findByCode('DEFAULT');
  // A rate limit no load here reaches: the bench measures the path, not the limiter's refusals.
  const key = await services.apiKeys.create(
    { name, scopes: ['read', 'write'], tenantId: tenant.id, rateLimitPerMinute: 1_000_000 },
    null,
  );
  const port = freePort();
  const execArgv = ['--import', bootstrap];
  const gateway = await startApp('gateway', bench.env, { port, execArgv });
  const worker = await startApp('ingest-worker', bench.env, { execArgv });
  const url = `http://127.0.0.1:${port}/api/v1/integration/v1`;
  const headers = { 'x-api-key': key.rawKey, 'content-type': 'application/json' };
  // The item the inquiry asks for.
  const item = await fetch(`${url}/items`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ sku: INQUIRY_SKU, name: 'Traced', baseUomCode: 'EA' }),
  });
  if (!item.ok) throw new Error(`${name}: the inquiry's item was not created (${item.status})`);
  return {
    url,
    headers,
    gateway,
    async stop() {
      await gateway.stop();
      await worker.stop();
      await runtime.close();
      await bench.cleanup();
    },
  };
}

export default async function tracingBench() {
  const started = [];
  try {
    const receiver = await startHelper('receiver');
    started.push(receiver);
    const loadgen = await startHelper('loadgen');
    started.push(loadgen);
    const on = await startSide('tracing-on', {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.ready.url,
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.1',
    });
    started.push(on);
    const off = await startSide('tracing-off', {});
    started.push(off);

    const inquiry = (side, duration) => ({
      load: {
        options: {
          url: `${side.url}/stock?sku=${INQUIRY_SKU}`,
          headers: side.headers,
          connections: CONNECTIONS,
          duration,
        },
      },
      pid: side.gateway.pid,
    });
    const bulk = (side, prefix, amount) => ({
      load: {
        options: {
          url: `${side.url}/items/bulk`,
          headers: side.headers,
          connections: BULK_CLIENTS,
          amount,
          timeout: 60,
        },
        body: { kind: 'items', prefix, size: BULK_SIZE },
        verify: `"created":${BULK_SIZE},`,
      },
      pid: side.gateway.pid,
    });
    // Warm-up: JIT, pools, prepared plans, and the items the inquiry asks for.
    for (const side of [on, off]) {
      await loadgen.call(bulk(side, 'warm', 4).load);
      await loadgen.call(inquiry(side, 1).load);
    }
    const rows = [
      await compareRounds('stock inquiry, tracing on 10 % / off', loadgen, inquiry(on, SECONDS), inquiry(off, SECONDS)),
      await compareRounds(
        `bulk of ${BULK_SIZE} items, tracing on 10 % / off`,
        loadgen,
        bulk(on, 'on', BULKS),
        bulk(off, 'off', BULKS),
        { perRequest: BULK_SIZE },
      ),
    ];
    console.log(
      `${ROUNDS} rounds; inquiry ${SECONDS} s at ${CONNECTIONS} connections, bulk ${BULKS} calls of ${BULK_SIZE} items ` +
        `at ${BULK_CLIENTS} clients; "service" = tracing on (OTLP to a local receiver, ratio 0.1), "bare" = off`,
    );
    console.table(rows);
  } finally {
    for (const helper of started.reverse()) await helper.stop();
  }
}
