// Webhook delivery: deliveries/s of one webhook-worker process to a local receiver, and event-to-delivery
// latency (commit of the event's transaction → request at the receiver) p50/p99. Events are appended in
// PostgreSQL through EventsService.append, as an operation would; the relay and the delivery worker run in
// a started webhook-worker process; the receiver is node:http in this process. Loopback only, bounded counts.
import { createServer } from 'node:http';
import { EventsService, WebhooksService, createSequelize, defineModels, runSeed } from '@wms/shared';
import { prepareBenchEnv, startApp } from './lib.mjs';

const THROUGHPUT_EVENTS = 10_000;
const LATENCY_EVENTS = 400;
const LATENCY_RATE_PER_S = 200;

export default async function webhooksBench() {
  const bench = await prepareBenchEnv('webhooks', { WEBHOOK_ALLOW_PRIVATE_URLS: 'true', LOG_LEVEL: 'warn', ...JSON.parse(process.env.BENCH_ENV ?? '{}') });
  const sequelize = createSequelize({ ...bench.config, databasePoolMax: 4 });
  const db = { sequelize, models: defineModels(sequelize) };
  const receiver = await startReceiver();
  let worker;
  try {
    await runSeed(db, bench.config);
    const [[tenant]] = await sequelize.query("SELECT id FROM tenants WHERE code = 'DEFAULT'");
    // The receiver is plain http on loopback; production config (https only) would refuse it at registration.
    const webhooks = new WebhooksService(db, { ...bench.config, nodeEnv: 'test' });
    await webhooks.create({ url: `${receiver.url}/hook`, events: ['*'] }, tenant.id, null);
    const events = new EventsService(db);
    const data = { orderNo: 'SO-1', shipmentNo: 'SHP-1', trackingNo: 'T-1' };

    // 1. Throughput: a backlog appended first, then one worker drains it.
    for (let done = 0; done < THROUGHPUT_EVENTS; done += 500) {
      await sequelize.transaction(async (transaction) => {
        for (let i = 0; i < 500; i++) await events.append(transaction, { tenantId: tenant.id, event: 'order.shipped', data });
      });
    }
    const started = performance.now();
    worker = await startApp('webhook-worker', bench.env);
    await receiver.waitForCount(THROUGHPUT_EVENTS, 120_000);
    const drainedMs = performance.now() - started;
    const firstToLast = receiver.lastAt - receiver.firstAt;
    console.log(`backlog of ${THROUGHPUT_EVENTS} events, one worker (WEBHOOK_CONCURRENCY=${bench.config.webhook.concurrency}):`);
    console.log(`  deliveries/s (first to last delivery): ${Math.round((THROUGHPUT_EVENTS / firstToLast) * 1000)}`);
    console.log(`  deliveries/s (incl. worker start-up):   ${Math.round((THROUGHPUT_EVENTS / drainedMs) * 1000)}`);

    // 2. Latency: single-event transactions at a steady rate against an idle worker.
    receiver.reset();
    const committedAt = new Map();
    for (let i = 0; i < LATENCY_EVENTS; i++) {
      const tickAt = started + drainedMs + i * (1000 / LATENCY_RATE_PER_S);
      const wait = tickAt - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const event = await sequelize.transaction((transaction) => events.append(transaction, { tenantId: tenant.id, event: 'order.shipped', data }));
      committedAt.set(event.id, performance.now());
    }
    await receiver.waitForCount(LATENCY_EVENTS, 60_000);
    const latencies = [...receiver.receivedAt].filter(([id]) => committedAt.has(id)).map(([id, at]) => at - committedAt.get(id)).sort((a, b) => a - b);
    const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))].toFixed(1);
    console.log(`event-to-delivery latency, ${LATENCY_EVENTS} events at ${LATENCY_RATE_PER_S}/s: p50 ${pct(50)} ms, p99 ${pct(99)} ms, max ${latencies.at(-1).toFixed(1)} ms`);
  } finally {
    await worker?.stop();
    await receiver.close();
    await sequelize.close();
    await bench.cleanup();
  }
}

async function startReceiver() {
  let count = 0;
  let receivedAt = new Map();
  let firstAt = 0;
  let lastAt = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const now = performance.now();
      const id = req.headers['webhook-id'];
      if (!receivedAt.has(id)) {
        receivedAt.set(id, now);
        count++;
        if (count === 1) firstAt = now;
        lastAt = now;
      }
      res.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    get receivedAt() {
      return receivedAt;
    },
    get firstAt() {
      return firstAt;
    },
    get lastAt() {
      return lastAt;
    },
    reset() {
      count = 0;
      receivedAt = new Map();
    },
    async waitForCount(target, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      while (count < target) {
        if (Date.now() > deadline) throw new Error(`receiver got ${count} of ${target} deliveries in ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}
