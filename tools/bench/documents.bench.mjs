// Documents bench: the stock and order inquiries (API key, no rate limit) and order creates (single, and
// bulk of 100 through the ingest worker) at 32 connections, each beside the same statements run by a bare
// Express + `pg` server (processes/bare-server.mjs). The gateway, the ingest worker, the bare server and
// the load generator are four processes; the sides alternate over several rounds. Then the stock inquiry
// through a gateway reading from one hot standby beside one reading the primary alone, over a primary and
// standby the bench starts, and how many reads still reach the standby while one tenant writes steadily and
// another only reads (BENCH_REPLICA=0 leaves that case out, BENCH_REPLICA=only runs it alone). Loopback only,
// bounded durations.
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { backendReaders } from './backends.mjs';
import {
  ROUNDS,
  benchApiKey,
  compareRounds,
  freePort,
  prepareBenchEnv,
  peakRssMb,
  printPeakRss,
  startApp,
  startHelper,
} from './lib.mjs';
import { openRuntime } from '@wms/platform';
import { createServices } from '../../apps/gateway/dist/services.js';
import { startPostgresReplication } from '../../libs/testing/src/postgres-servers.mjs';
import { readsWhileOneTenantWrites } from './replica-tenants.mjs';

const CONNECTIONS = 32;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const LOCATIONS = 4;
const LOTS = 5;
/** The dated versions the inquiries and bulk are measured in, with the quantity format of each. */
const VERSIONS = [
  ['2026-11-21', 'number'],
  ['2026-12-01', 'decimal'],
];

export default async function documentsBench() {
  if (process.env.BENCH_REPLICA !== 'only') await gatewayAgainstBare();
  if (process.env.BENCH_REPLICA === '0') return;
  if (!existsSync('/usr/lib/postgresql') && !process.env.PG_BIN_DIR) {
    console.log('read replica case left out: no PostgreSQL binaries (set PG_BIN_DIR)');
    return;
  }
  await replicaCase();
}

async function gatewayAgainstBare() {
  // The production log level: the gateway writes its line per request (to a file, as in a container).
  const bench = await prepareBenchEnv('documents', { LOG_LEVEL: 'info' });
  const logFile = join(tmpdir(), `wms-bench-documents-${process.pid}.log`);
  const port = freePort();
  const runtime = openRuntime(bench.config, { name: 'bench-setup', redisRole: 'producer' });
  const services = createServices(runtime.db, bench.config);
  const started = [];
  let backends;
  try {
    const { tenant, key } = await benchApiKey(services, 'documents bench');
    await arrangeStock(runtime, services, tenant.id);
    const gateway = await startApp('gateway', bench.env, { port, logFile });
    started.push(gateway);
    const worker = await startApp('ingest-worker', bench.env, { logFile });
    started.push(worker);
    const bare = await startHelper('bare-server', {
      ...bench.env,
      POOL_MAX: String(bench.config.databasePoolMax),
      TENANT_ID: tenant.id,
    });
    started.push(bare);
    const loadgen = await startHelper('loadgen');
    started.push(loadgen);

    const base = `http://127.0.0.1:${port}/api/v1/integration/v1`;
    const bareBase = `http://127.0.0.1:${bare.ready.port}`;
    const headers = { 'x-api-key': key.rawKey, 'content-type': 'application/json' };
    const orderNo = await createOrder(base, headers);
    const get = (url, extra = {}) => ({ options: { url, connections: CONNECTIONS, duration: SECONDS, ...extra } });
    const post = (url, postHeaders, body) => ({
      options: { url, method: 'POST', headers: postHeaders, connections: CONNECTIONS, duration: SECONDS },
      body,
    });
    const service = (load) => ({ load, pid: gateway.pid });
    const baseline = (load) => ({ load, pid: bare.pid });

    // Warm-up: JIT, pools, prepared statements on both sides, as long as one measured side and round (a
    // shorter one left the first case measured paying the gateway's warm-up, whichever case came first).
    for (const url of [
      `${base}/stock?sku=BENCH-LOT&warehouseCode=MAIN`,
      `${bareBase}/stock?sku=BENCH-LOT&warehouseCode=MAIN`,
    ])
      await loadgen.call({ options: { url, headers, connections: CONNECTIONS, duration: SECONDS } });

    // What each side costs the shared back ends: PostgreSQL's backends of the bench database, Redis.
    backends = await backendReaders(bench.config);
    const rows = [];
    // The inquiries in each dated version: a key on 2026-11-21 gets float8 numbers, one on 2026-12-01 decimal
    // strings, each built by its own statement (the bare server runs the same one).
    for (const [version, format] of VERSIONS) {
      const versioned = { ...headers, 'wms-version': version };
      rows.push(
        await compareRounds(
          `stock inquiry (20 rows), ${version}`,
          loadgen,
          service(get(`${base}/stock?sku=BENCH-LOT&warehouseCode=MAIN`, { headers: versioned })),
          baseline(get(`${bareBase}/stock?sku=BENCH-LOT&warehouseCode=MAIN&format=${format}`)),
          { backends },
        ),
      );
      rows.push(
        await compareRounds(
          `order inquiry, ${version}`,
          loadgen,
          service(get(`${base}/orders/${orderNo}`, { headers: versioned })),
          baseline(get(`${bareBase}/orders/${orderNo}?format=${format}`)),
          { backends },
        ),
      );
    }
    // VmHWM only grows: read now, it is the gateway's peak under the inquiries alone (the memory goal).
    const inquiriesPeak = peakRssMb(gateway.pid);
    if (!process.env.BENCH_INQUIRIES_ONLY) {
      const json = { 'content-type': 'application/json' };
      rows.push(
        await compareRounds(
          'order create (single)',
          loadgen,
          service(post(`${base}/orders`, headers, { kind: 'order', prefix: 'svc' })),
          baseline(post(`${bareBase}/orders`, json, { kind: 'order', prefix: 'bare' })),
        ),
      );
      for (const [version] of VERSIONS)
        rows.push(
          await compareRounds(
            `order create (bulk of 100), ${version}, orders/s`,
            loadgen,
            service(
              post(
                `${base}/orders/bulk`,
                { ...headers, 'wms-version': version },
                { kind: 'orders', prefix: `svc-bulk-${version}`, size: 100 },
              ),
            ),
            baseline(
              post(`${bareBase}/orders/bulk`, json, { kind: 'orders', prefix: `bare-bulk-${version}`, size: 100 }),
            ),
            { perRequest: 100 },
          ),
        );
    }
    console.log(
      `${ROUNDS} rounds per case, sides alternating; ${SECONDS} s per side and round, ${CONNECTIONS} connections`,
    );
    console.table(rows);
    console.log(`peak RSS of the gateway under the inquiries: ${inquiriesPeak.toFixed(0)} MB; over the whole phase:`);
    printPeakRss({
      gateway: gateway.pid,
      'ingest-worker': worker.pid,
      'bare server': bare.pid,
      'load generator': loadgen.pid,
    });
    // Refused requests are fast: a run with any of them measures the refusals, not the work.
    if (rows.some((row) => !row['non-2xx service/bare'].startsWith('0/')))
      console.log('WARNING: some service requests were not 2xx; these figures are not valid');
  } finally {
    await backends?.close();
    for (const process of started.reverse()) await process.stop();
    await runtime.close();
    await bench.cleanup();
  }
}

/**
 * The stock inquiry through a gateway whose reads go to one hot standby (DATABASE_READ_URLS), beside a
 * gateway over the same primary alone: both gateways, the primary and the standby run on this machine, so
 * the figure shows what the routing costs a gateway and what a standby sharing the cores gives back, not
 * what a standby on a host of its own would add.
 */
async function replicaCase() {
  const servers = await startPostgresReplication();
  const started = [];
  let bench;
  let runtime;
  try {
    bench = await prepareBenchEnv('documents-replica', {
      LOG_LEVEL: 'info',
      DATABASE_URL: servers.primary.url(`wms_bench_replica_${process.pid}`),
    });
    runtime = openRuntime(bench.config, { name: 'bench-setup', redisRole: 'producer' });
    const services = createServices(runtime.db, bench.config);
    const { tenant, key } = await benchApiKey(services, 'documents replica bench');
    await arrangeStock(runtime, services, tenant.id);
    const logFile = join(tmpdir(), `wms-bench-documents-replica-${process.pid}.log`);
    const [alonePort, replicaPort] = [freePort(), freePort()];
    const alone = await startApp('gateway', bench.env, { port: alonePort, logFile });
    started.push(alone);
    const replicaEnv = { ...bench.env, DATABASE_READ_URLS: servers.standbyUrl(bench.config.databaseUrl) };
    const withReplica = await startApp('gateway', replicaEnv, { port: replicaPort, logFile });
    started.push(withReplica);
    const loadgen = await startHelper('loadgen');
    started.push(loadgen);

    const headers = { 'x-api-key': key.rawKey };
    const stock = (port) => `http://127.0.0.1:${port}/api/v1/integration/v1/stock?sku=BENCH-LOT&warehouseCode=MAIN`;
    const get = (url) => ({ options: { url, headers, connections: CONNECTIONS, duration: SECONDS } });
    await waitForReplicaInRotation(replicaPort, bench.config.metricsToken);
    for (const port of [alonePort, replicaPort])
      await loadgen.call({ options: { url: stock(port), headers, connections: CONNECTIONS, duration: 1 } });

    const row = await compareRounds(
      'stock inquiry (20 rows), one read replica / primary alone',
      loadgen,
      { load: get(stock(replicaPort)), pid: withReplica.pid },
      { load: get(stock(alonePort)), pid: alone.pid },
    );
    const reads = await scrape(replicaPort, bench.config.metricsToken);
    const named = Object.fromEntries(
      Object.entries(row).map(([column, value]) => [
        column.replace('service/bare', 'replica/alone').replace('service/s', 'replica/s').replace('bare/s', 'alone/s'),
        value,
      ]),
    );
    console.log(
      `${ROUNDS} rounds, sides alternating; ${SECONDS} s per side and round, ${CONNECTIONS} connections; ` +
        'the primary, the standby and both gateways share this machine',
    );
    console.table([named]);
    console.log('reads of the replica gateway, by pool and reason:', reads.reads);
    if (!row['non-2xx service/bare'].startsWith('0/'))
      console.log('WARNING: some requests were not 2xx; these figures are not valid');
    await readsWhileOneTenantWrites({
      services,
      port: replicaPort,
      token: bench.config.metricsToken,
      loadgen,
      reader: key.rawKey,
      seconds: SECONDS,
      connections: CONNECTIONS,
      scrape,
    });
  } finally {
    for (const child of started.reverse()) await child.stop();
    await runtime?.close();
    await bench?.cleanup().catch(() => undefined);
    await servers.stop();
  }
}

/** The gateway's wms_db_reads_total by pool and reason ("replica no_recent_write": 12, …), and whether its replica takes reads. */
async function scrape(port, token) {
  const response = await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { authorization: `Bearer ${token}` } });
  const text = await response.text();
  const reads = {};
  for (const [, labels, value] of text.matchAll(/^wms_db_reads_total\{([^}]*)\} (\S+)$/gm)) {
    const label = (name) => new RegExp(`${name}="([^"]*)"`).exec(labels)?.[1];
    reads[`${label('pool')} ${label('reason')}`] = Number(value);
  }
  return { reads, inRotation: /^wms_db_replica_in_rotation\{[^}]*\} 1$/m.test(text) };
}

async function waitForReplicaInRotation(port, token) {
  const deadline = Date.now() + 20_000;
  while (!(await scrape(port, token)).inRotation) {
    if (Date.now() > deadline) throw new Error('the read replica never came into rotation');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** One order through the gateway, for the order inquiry to read; returns its number. */
async function createOrder(base, headers) {
  const response = await fetch(`${base}/orders`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      warehouseCode: 'MAIN',
      customerCode: 'BENCH-CUST',
      referenceNo: 'BENCH-INQUIRY',
      priority: 1,
      lines: [
        { lineNo: 1, sku: 'BENCH-LOT', uomCode: 'EA', qtyOrdered: 2 },
        { lineNo: 2, sku: 'BENCH-PLAIN', uomCode: 'EA', qtyOrdered: 1 },
      ],
    }),
  });
  const body = await response.json();
  if (response.status !== 201) throw new Error(`order create answered ${response.status}: ${JSON.stringify(body)}`);
  return body.data.orderNo;
}

/** One lot-tracked item with LOTS lots on each of LOCATIONS locations (20 stock rows), a plain item, a customer. */
export async function arrangeStock(runtime, services, tenantId) {
  await runtime.db.sequelize.transaction(async (transaction) => {
    const context = { tenantId, transaction };
    await services.masterData.upsertItems(context, [
      { sku: 'BENCH-LOT', name: 'Bench lot item', baseUomCode: 'EA', tracking: 'lot' },
      { sku: 'BENCH-PLAIN', name: 'Bench plain item', baseUomCode: 'EA', tracking: 'none' },
    ]);
    await services.masterData.upsertPartners(context, [
      { code: 'BENCH-CUST', name: 'Bench customer', type: 'customer' },
    ]);
    await services.masterData.upsertLocations(
      context,
      Array.from({ length: LOCATIONS }, (_, n) => ({
        warehouseCode: 'MAIN',
        code: `L-${n}`,
        type: 'storage',
        pickFace: n === 0,
      })),
    );
    const lines = [];
    for (let location = 0; location < LOCATIONS; location += 1) {
      for (let lot = 0; lot < LOTS; lot += 1) {
        lines.push({
          sku: 'BENCH-LOT',
          uomCode: 'EA',
          qty: 100,
          lotNo: `LOT-${lot}`,
          expiryDate: `2031-0${lot + 1}-01`,
          locationCode: `L-${location}`,
        });
      }
    }
    await services.grns.receive(context, { warehouseCode: 'MAIN', lines });
  });
}
