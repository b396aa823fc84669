// Soak: the three apps under a steady mixed load for BENCH_SOAK_MINUTES (10), with V8's defaults as
// production runs them. The load, in slices of 10 s until the time is up: stock and order inquiries
// (API key, 4 connections each), bulk upserts of 100 new items through the ingest worker (2 connections),
// and stock.adjusted events appended at BENCH_SOAK_EVENTS_PER_S (100) that the webhook worker delivers to a
// local receiver. Each app's resident memory (VmRSS) is sampled every second; the figure at a mark is the
// median of the samples of the 10 s before it (one sample can land just before or after a collection). The
// bench prints every app's figure at BENCH_SOAK_CHECKPOINT_MINUTES (2) and at the end, and whether the end
// is within 10 % of the checkpoint: memory that keeps growing under a constant load is a leak or an
// unbounded cache. The apps, the receiver, the event source and the load generator are processes of their
// own. Run it alone (`npm run bench:soak`); `npm run bench` leaves it out. Loopback only.
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AuditService } from '@wms/identity';
import { openRuntime } from '@wms/platform';
import { createServices } from '../../apps/gateway/dist/services.js';
import { WebhooksService } from '@wms/webhooks';
import { arrangeStock } from './documents.bench.mjs';
import { benchApiKey, freePort, median, prepareBenchEnv, startApp, startHelper } from './lib.mjs';

const MINUTES = Number(process.env.BENCH_SOAK_MINUTES ?? 10);
const CHECKPOINT_MINUTES = Number(process.env.BENCH_SOAK_CHECKPOINT_MINUTES ?? 2);
const EVENTS_PER_S = Number(process.env.BENCH_SOAK_EVENTS_PER_S ?? 100);
const SLICE_S = 10;
const WINDOW_MS = 10_000;
const TOLERANCE = 0.1;
const BULK_SIZE = 100;
const APPS = ['gateway', 'ingest-worker', 'webhook-worker'];

export default async function soakBench() {
  if (!(MINUTES > 0 && CHECKPOINT_MINUTES > 0 && CHECKPOINT_MINUTES < MINUTES))
    throw new Error('BENCH_SOAK_CHECKPOINT_MINUTES must be above 0 and below BENCH_SOAK_MINUTES');
  const port = freePort();
  const bench = await prepareBenchEnv('soak', {
    LOG_LEVEL: 'info',
    BULK_SYNC_TIMEOUT_MS: '60000',
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
  });
  const logFile = join(tmpdir(), `wms-bench-soak-${process.pid}.log`);
  const runtime = openRuntime(bench.config, { name: 'bench-soak', redisRole: 'producer' });
  const services = createServices(runtime.db, bench.config);
  const started = [];
  let sampler;
  try {
    const { tenant, key } = await benchApiKey(services, 'soak');
    await arrangeStock(runtime, services, tenant.id);
    const [created] = await services.orders.createOrders({ tenantId: tenant.id }, [
      {
        warehouseCode: 'MAIN',
        customerCode: 'BENCH-CUST',
        referenceNo: 'BENCH-SOAK',
        priority: 1,
        lines: [{ lineNo: 1, sku: 'BENCH-LOT', uomCode: 'EA', qtyOrdered: 2 }],
      },
    ]);
    const receiver = await startHelper('receiver');
    started.push(receiver);
    // The receiver is plain http on loopback; production config (https only) would refuse it at registration.
    const db = { sequelize: runtime.db.sequelize };
    const webhooks = new WebhooksService(db, { ...bench.config, nodeEnv: 'test' }, new AuditService(db));
    await webhooks.create({ url: `${receiver.ready.url}/hook`, events: ['*'] }, tenant.id, null);

    const apps = {};
    apps.gateway = await startApp('gateway', bench.env, { port, logFile });
    started.push(apps.gateway);
    apps['ingest-worker'] = await startApp('ingest-worker', bench.env, { logFile });
    started.push(apps['ingest-worker']);
    apps['webhook-worker'] = await startApp('webhook-worker', bench.env, { logFile });
    started.push(apps['webhook-worker']);
    const source = await startHelper('event-source', { ...bench.env, TENANT_ID: tenant.id });
    started.push(source);
    const loadgen = await startHelper('loadgen');
    started.push(loadgen);

    const base = `http://127.0.0.1:${port}/api/v1/integration/v1`;
    const headers = { 'x-api-key': key.rawKey, 'content-type': 'application/json' };
    const inquiry = (url) => loadgen.call({ options: { url, headers, connections: 4, duration: SLICE_S } });
    const bulk = () =>
      loadgen.call({
        options: { url: `${base}/items/bulk`, headers, connections: 2, duration: SLICE_S, timeout: 60 },
        body: { kind: 'items', prefix: 'soak', size: BULK_SIZE },
        verify: `"created":${BULK_SIZE},`,
      });

    const startedAt = Date.now();
    sampler = rssSampler(Object.fromEntries(APPS.map((app) => [app, apps[app].pid])));
    const totals = { inquiries: 0, bulks: 0, failed: 0, appended: 0, delivered: 0 };
    let checkpoint;
    const checkpointMs = CHECKPOINT_MINUTES * 60_000;
    const endMs = MINUTES * 60_000;
    while (Date.now() - startedAt < endMs) {
      const [stock, order, items, committed] = await Promise.all([
        inquiry(`${base}/stock?sku=BENCH-LOT&warehouseCode=MAIN`),
        inquiry(`${base}/orders/${created.data.orderNo}`),
        bulk(),
        source.call({ cmd: 'stream', rate: EVENTS_PER_S, seconds: SLICE_S, tickMs: 50 }),
      ]);
      totals.inquiries += stock.total + order.total;
      totals.bulks += items.total;
      totals.appended += committed.length;
      for (const run of [stock, order, items]) totals.failed += run.non2xx + run.errors + (run.mismatches ?? 0);
      totals.delivered += await receiver.call({ cmd: 'count' });
      await receiver.call({ cmd: 'reset' });
      if (!checkpoint && Date.now() - startedAt >= checkpointMs) checkpoint = sampler.at(startedAt + checkpointMs);
      const minutes = ((Date.now() - startedAt) / 60_000).toFixed(1);
      console.log(`${minutes} min: RSS ${formatRss(sampler.latest())}`);
    }
    const end = sampler.at(Date.now());
    const seconds = (Date.now() - startedAt) / 1000;
    console.log(
      `${seconds.toFixed(0)} s of mixed load: ${(totals.inquiries / seconds).toFixed(0)} inquiries/s, ` +
        `${((totals.bulks * BULK_SIZE) / seconds).toFixed(0)} bulk items/s, ` +
        `${(totals.delivered / seconds).toFixed(0)} webhook deliveries/s (${totals.delivered} of ${totals.appended} events ` +
        `offered), non-2xx or wrong answers: ${totals.failed}`,
    );
    const rows = APPS.map((app) => {
      const change = (end[app] - checkpoint[app]) / checkpoint[app];
      return {
        app,
        [`RSS MB at ${CHECKPOINT_MINUTES} min`]: checkpoint[app].toFixed(0),
        [`RSS MB at ${(seconds / 60).toFixed(1)} min`]: end[app].toFixed(0),
        change: `${change >= 0 ? '+' : ''}${(100 * change).toFixed(1)} %`,
        'within 10 %': Math.abs(change) <= TOLERANCE ? 'yes' : 'NO',
      };
    });
    console.table(rows);
    console.log(`app logs: ${logFile}`);
    if (totals.failed) console.log('WARNING: some requests failed; the load was not the one intended');
    // A worker that falls behind holds a growing queue: its memory grows with the backlog, not with a leak.
    if (totals.delivered < 0.9 * totals.appended)
      console.log(
        'WARNING: webhook deliveries fell behind the events offered; lower BENCH_SOAK_EVENTS_PER_S to judge memory',
      );
  } finally {
    sampler?.stop();
    for (const helper of started.reverse()) await helper.stop();
    await runtime.close();
    await bench.cleanup();
  }
}

/** Current resident set size of a process (VmRSS), in MB. */
function rssMb(pid) {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

/** Samples each process' RSS every second; `at(time)` is each one's median over the 10 s up to `time`. */
function rssSampler(pids) {
  const samples = [];
  const take = () => samples.push({ at: Date.now(), rss: mapValues(pids, rssMb) });
  take();
  const timer = setInterval(take, 1000);
  return {
    latest: () => samples.at(-1).rss,
    at(time) {
      const window = samples.filter((sample) => sample.at <= time && sample.at > time - WINDOW_MS);
      return mapValues(pids, (_, name) => median(window.map((sample) => sample.rss[name])));
    },
    stop: () => clearInterval(timer),
  };
}

function mapValues(object, fn) {
  return Object.fromEntries(Object.entries(object).map(([name, value]) => [name, fn(value, name)]));
}

const formatRss = (rss) =>
  Object.entries(rss)
    .map(([name, mb]) => `${name} ${mb.toFixed(0)} MB`)
    .join(', ');
