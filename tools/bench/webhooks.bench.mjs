// Webhook delivery: deliveries/s of one webhook-worker process to a local receiver (processes/receiver.mjs,
// a process of its own), for a backlog already in the outbox when the worker starts (the case after an
// outage or a deploy) and for a steady stream of events appended while it runs; event → delivery latency
// (commit of the event → its arrival at the receiver, wall clock of both processes) p50/p99. Signing, the
// delivery log and the queue are the worker's real ones. Loopback only, bounded counts.
import pg from 'pg';
import { WebhooksService, createSequelize } from '@wms/shared';
import { cpuMs, median, peakRssMb, prepareBenchEnv, startApp, startHelper } from './lib.mjs';

const BACKLOG_EVENTS = Number(process.env.BENCH_WEBHOOK_BACKLOG ?? 5_000);
const STREAM_RATE_PER_S = Number(process.env.BENCH_WEBHOOK_RATE ?? 2_000);
const STREAM_SECONDS = 4;
const LIGHT_RATE_PER_S = 200;
const LIGHT_SECONDS = 2;
const TICK_MS = 20;

const wallNow = () => performance.timeOrigin + performance.now();

export default async function webhooksBench() {
  const bench = await prepareBenchEnv('webhooks', {
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    LOG_LEVEL: 'warn',
    ...JSON.parse(process.env.BENCH_ENV ?? '{}'),
  });
  const sequelize = createSequelize({ ...bench.config, databasePoolMax: 2 });
  const client = new pg.Client({ connectionString: bench.config.databaseUrl });
  await client.connect();
  const receiver = await startHelper('receiver');
  let worker;
  try {
    const {
      rows: [tenant],
    } = await client.query("SELECT id FROM tenants WHERE code = 'DEFAULT'");
    // The receiver is plain http on loopback; production config (https only) would refuse it at registration.
    const webhooks = new WebhooksService({ sequelize }, { ...bench.config, nodeEnv: 'test' });
    await webhooks.create({ url: `${receiver.ready.url}/hook`, events: ['*'] }, tenant.id, null);
    const append = (count) => appendEvents(client, tenant.id, count);

    // 1. Backlog: events committed before the worker starts; one worker drains them.
    await append(BACKLOG_EVENTS);
    const startedAt = wallNow();
    worker = await startApp('webhook-worker', bench.env);
    const cpuBefore = cpuMs(worker.pid);
    await waitForCount(receiver, BACKLOG_EVENTS, 120_000);
    const drainedAt = wallNow();
    const backlogCpu = cpuMs(worker.pid) - cpuBefore;
    const backlog = (await receiver.call({ cmd: 'times' })).map(([, at]) => at);
    const first = Math.min(...backlog);
    const last = Math.max(...backlog);
    console.log(
      `backlog of ${BACKLOG_EVENTS} events in the outbox, one worker (WEBHOOK_CONCURRENCY=${bench.config.webhook.concurrency}):`,
    );
    console.log(`  deliveries/s, first to last delivery:  ${Math.round((BACKLOG_EVENTS / (last - first)) * 1000)}`);
    console.log(
      `  deliveries/s, worker start to last:    ${Math.round((BACKLOG_EVENTS / (drainedAt - startedAt)) * 1000)}`,
    );
    console.log(`  worker CPU per delivery (incl. start-up): ${(backlogCpu / BACKLOG_EVENTS).toFixed(2)} ms`);

    // 2. Steady stream at a fixed offered rate, then 3. a light stream: latency without a queue behind it.
    for (const [label, rate, seconds] of [
      ['steady stream', STREAM_RATE_PER_S, STREAM_SECONDS],
      ['light stream', LIGHT_RATE_PER_S, LIGHT_SECONDS],
    ]) {
      await receiver.call({ cmd: 'reset' });
      const cpu0 = cpuMs(worker.pid);
      const committed = await stream(append, rate, seconds);
      await waitForCount(receiver, committed.size, 120_000);
      const cpu = cpuMs(worker.pid) - cpu0;
      const times = await receiver.call({ cmd: 'times' });
      const latencies = times
        .filter(([id]) => committed.has(id))
        .map(([id, at]) => at - committed.get(id))
        .sort((a, b) => a - b);
      const firstCommit = Math.min(...committed.values());
      const lastArrival = Math.max(...times.map(([, at]) => at));
      const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))].toFixed(1);
      console.log(
        `${label}, ${committed.size} events offered at ${rate}/s: delivered ${Math.round((committed.size / (lastArrival - firstCommit)) * 1000)}/s; ` +
          `event → delivery p50 ${pct(50)} ms, p99 ${pct(99)} ms, median ${median(latencies).toFixed(1)} ms; worker CPU ${(cpu / committed.size).toFixed(2)} ms/delivery`,
      );
    }
    console.log(
      `peak RSS: webhook-worker ${peakRssMb(worker.pid).toFixed(0)} MB, receiver ${peakRssMb(receiver.pid).toFixed(0)} MB`,
    );
  } finally {
    await worker?.stop();
    await receiver.stop();
    await client.end();
    await sequelize.close();
    await bench.cleanup();
  }
}

/**
 * Appends `count` stock.adjusted events in one statement, as committed operations leave them in the
 * outbox (with the append notification); resolves with their ids and commit time.
 */
async function appendEvents(client, tenantId, count) {
  const { rows } = await client.query(
    `WITH inserted AS (
       INSERT INTO events (tenant_id, event, data)
       SELECT $1::uuid, 'stock.adjusted', jsonb_build_object('warehouseCode', 'MAIN', 'locationCode', 'L-1', 'sku', 'SKU-' || n,
                'lotNo', null, 'qtyDelta', 1, 'qtyOnHand', n, 'reason', 'bench', 'tenantId', $1::uuid)
         FROM generate_series(1, $2::int) AS n
       RETURNING id)
     SELECT id, pg_notify('wms_events', '') IS NULL AS notified FROM inserted`,
    [tenantId, count],
  );
  const at = wallNow();
  return rows.map((row) => [row.id, at]);
}

/** Appends events at `rate` per second for `seconds`, a small transaction every tick; returns id → commit time. */
async function stream(append, rate, seconds) {
  const committed = new Map();
  const started = performance.now();
  const ticks = Math.round((seconds * 1000) / TICK_MS);
  let sent = 0;
  for (let tick = 1; tick <= ticks; tick += 1) {
    const due = Math.round((rate * tick * TICK_MS) / 1000);
    for (const [id, at] of await append(due - sent)) committed.set(id, at);
    sent = due;
    const wait = started + tick * TICK_MS - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }
  return committed;
}

async function waitForCount(receiver, target, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const count = await receiver.call({ cmd: 'count' });
    if (count >= target) return;
    if (Date.now() > deadline) throw new Error(`receiver got ${count} of ${target} deliveries in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
