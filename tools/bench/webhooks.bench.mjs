// Webhook delivery: deliveries/s of one webhook-worker process to a local receiver, for a backlog already in
// the outbox when the worker starts (the case after an outage or a deploy) and for a steady stream of events
// appended while it runs; event → delivery latency (commit of the event → its arrival at the receiver, wall
// clock of both processes) p50/p99. The worker, the receiver (processes/receiver.mjs) and the event source
// (processes/event-source.mjs) are processes of their own. Signing, the delivery log and the queue are the
// worker's real ones, at the production log level (its lines go to a file). Several rounds, each with a
// fresh worker; figures as median (min–max). Loopback only, bounded counts.
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { AuditService } from '@wms/identity';
import { createSequelize } from '@wms/platform';
import { WebhooksService } from '@wms/webhooks';
import { postgresSampler, redisCpuReader } from './backends.mjs';
import { ROUNDS, cpuMs, median, peakRssMb, prepareBenchEnv, startApp, startHelper } from './lib.mjs';

const BACKLOG_EVENTS = Number(process.env.BENCH_WEBHOOK_BACKLOG ?? 5_000);
const STREAM_RATE_PER_S = Number(process.env.BENCH_WEBHOOK_RATE ?? 2_000);
const STREAM_SECONDS = Number(process.env.BENCH_WEBHOOK_SECONDS ?? 4);
/** The source appends one small transaction every tick. */
const STREAM_TICK_MS = 20;
const LIGHT_RATE_PER_S = 200;
const LIGHT_SECONDS = 2;
/** The fan-out case: events of a backlog, each delivered to this many subscriptions. */
const FAN_OUT_EVENTS = Number(process.env.BENCH_WEBHOOK_FAN_OUT_EVENTS ?? 500);
const FAN_OUT_SUBSCRIPTIONS = 10;

export default async function webhooksBench() {
  const bench = await prepareBenchEnv('webhooks', {
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    LOG_LEVEL: 'info',
    ...JSON.parse(process.env.BENCH_ENV ?? '{}'),
  });
  const logFile = join(tmpdir(), `wms-bench-webhook-worker-${process.pid}.log`);
  const sequelize = createSequelize({ ...bench.config, databasePoolMax: 2 });
  const client = new pg.Client({ connectionString: bench.config.databaseUrl });
  await client.connect();
  const postgres = await postgresSampler(bench.config.databaseUrl);
  const redis = await redisCpuReader(bench.config.redisUrl);
  const started = [];
  let worker;
  try {
    const {
      rows: [tenant],
    } = await client.query("SELECT id FROM tenants WHERE code = 'DEFAULT'");
    const receiver = await startHelper('receiver');
    started.push(receiver);
    const source = await startHelper('event-source', { ...bench.env, TENANT_ID: tenant.id });
    started.push(source);
    // The receiver is plain http on loopback; production config (https only) would refuse it at registration.
    const db = { sequelize };
    const webhooks = new WebhooksService(db, { ...bench.config, nodeEnv: 'test' }, new AuditService(db));
    const first = await webhooks.create({ url: `${receiver.ready.url}/hook`, events: ['*'] }, tenant.id, null);

    // What one phase cost: CPU ms per delivery of the worker, the receiver, PostgreSQL and Redis. A phase
    // that starts the worker counts the worker's CPU from its start (a new process), start-up included.
    const costed = async (deliveries, work, { startsWorker = false } = {}) => {
      const receiverBefore = cpuMs(receiver.pid);
      const workerBefore = startsWorker ? 0 : cpuMs(worker.pid);
      const redisBefore = await redis.read();
      const { result, postgres: pgMs } = await postgres.measure(work);
      const per = (ms) => ms / deliveries;
      return {
        result,
        cpu: {
          worker: per(cpuMs(worker.pid) - workerBefore),
          receiver: per(cpuMs(receiver.pid) - receiverBefore),
          postgres: per(pgMs),
          redis: per((await redis.read()) - redisBefore),
        },
      };
    };

    const rounds = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      // 1. Backlog: events committed before the worker starts; one worker drains them.
      await receiver.call({ cmd: 'reset' });
      await source.call({ cmd: 'append', count: BACKLOG_EVENTS });
      const startedAt = wallNow();
      // Measured from before the worker starts: it drains much of the backlog while it is still being waited for.
      const backlog = await costed(
        BACKLOG_EVENTS,
        async () => {
          worker = await startApp('webhook-worker', bench.env, { logFile });
          await waitForCount(receiver, BACKLOG_EVENTS, 120_000);
          return wallNow();
        },
        { startsWorker: true },
      );
      const arrivals = (await receiver.call({ cmd: 'times' })).map(([, at]) => at);
      const first = Math.min(...arrivals);
      const last = Math.max(...arrivals);

      // 2. Steady stream at a fixed offered rate.
      const steady = await streamPhase(receiver, source, costed, STREAM_RATE_PER_S, STREAM_SECONDS);
      rounds.push({
        backlogRate: (BACKLOG_EVENTS / (last - first)) * 1000,
        backlogFromStart: (BACKLOG_EVENTS / (backlog.result - startedAt)) * 1000,
        // From the worker's start to its first delivery: process start-up, connections, the relay's first pass.
        firstDeliveryMs: first - startedAt,
        backlogCpu: backlog.cpu,
        ...steady,
      });
      // 3. Last round: a light stream, the latency with no queue behind it.
      if (round === ROUNDS - 1) {
        const light = await streamPhase(receiver, source, costed, LIGHT_RATE_PER_S, LIGHT_SECONDS);
        console.log(
          `light stream at ${LIGHT_RATE_PER_S}/s: event → delivery p50 ${light.p50.toFixed(1)} ms, p99 ${light.p99.toFixed(1)} ms`,
        );
      }
      console.log(`peak RSS, round ${round + 1}: webhook-worker ${peakRssMb(worker.pid).toFixed(0)} MB`);
      await worker.stop();
      worker = undefined;
    }
    report(rounds, bench.config.webhook.concurrency);

    // 4. Backlog drain with ten subscriptions, unfiltered, then with half of them filtered. The filter lets
    // every event through (the deliveries are the same), so the rates compare what testing filters costs.
    await webhooks.update(first.id, { active: false }, { tenantId: null });
    const many = [];
    for (let index = 0; index < FAN_OUT_SUBSCRIPTIONS; index += 1)
      many.push(await webhooks.create({ url: `${receiver.ready.url}/fan/${index}`, events: ['*'] }, tenant.id, null));
    const filter = { $or: [{ tenantId: { $exists: true } }, { warehouseCode: { $in: ['MAIN', 'EAST'] } }] };
    const drain = async () => {
      await receiver.call({ cmd: 'reset' });
      await source.call({ cmd: 'append', count: FAN_OUT_EVENTS });
      worker = await startApp('webhook-worker', bench.env, { logFile });
      await waitForCount(receiver, FAN_OUT_EVENTS * FAN_OUT_SUBSCRIPTIONS, 180_000);
      await worker.stop();
      worker = undefined;
      const arrivals = (await receiver.call({ cmd: 'times' })).map(([, at]) => at);
      return ((FAN_OUT_EVENTS * FAN_OUT_SUBSCRIPTIONS) / (Math.max(...arrivals) - Math.min(...arrivals))) * 1000;
    };
    const setFilters = async (value) => {
      for (const subscription of many.slice(0, FAN_OUT_SUBSCRIPTIONS / 2))
        await webhooks.update(subscription.id, { filter: value }, { tenantId: null });
    };
    const unfiltered = [];
    const filtered = [];
    for (let round = 0; round < Math.max(ROUNDS, 2); round += 1) {
      await setFilters(null);
      unfiltered.push(await drain());
      await setFilters(filter);
      filtered.push(await drain());
    }
    const ratio = median(filtered) / median(unfiltered);
    console.log(
      `backlog of ${FAN_OUT_EVENTS} events to ${FAN_OUT_SUBSCRIPTIONS} subscriptions, deliveries/s first to last: ` +
        `unfiltered ${median(unfiltered).toFixed(0)} (${unfiltered.map((rate) => rate.toFixed(0)).join(', ')}), ` +
        `half filtered ${median(filtered).toFixed(0)} (${filtered.map((rate) => rate.toFixed(0)).join(', ')}): ` +
        `${(ratio * 100).toFixed(1)} % of unfiltered${ratio < 0.9 ? ' — MORE THAN 10 % SLOWER' : ''}`,
    );
    await senderCase(receiver, bench.config.webhook.concurrency);
    console.log(`peak RSS: receiver ${peakRssMb(receiver.pid).toFixed(0)} MB; worker log: ${logFile}`);
  } finally {
    await worker?.stop();
    for (const helper of started.reverse()) await helper.stop();
    await redis.close();
    await postgres.close();
    await client.end();
    await sequelize.close();
    await bench.cleanup();
  }
}

const wallNow = () => performance.timeOrigin + performance.now();

/** Deliveries per side and round of the HTTP client case. */
const SENDER_DELIVERIES = Number(process.env.BENCH_WEBHOOK_SENDER_DELIVERIES ?? 3_000);

/**
 * 5. The worker's HTTP client alone (processes/sender.mjs): `got` as the worker builds it against a plain
 * `node:http` client of the same contract, the same deliveries to the same receiver, in alternating rounds:
 * the client's CPU ms per delivery and deliveries/s.
 */
async function senderCase(receiver, concurrency) {
  const sender = await startHelper('sender');
  try {
    const url = `${receiver.ready.url}/sender`;
    const side = (client) => sender.call({ cmd: 'run', client, url, count: SENDER_DELIVERIES, concurrency });
    await side('got');
    await side('node');
    const rounds = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const [first, second] = round % 2 === 0 ? ['got', 'node'] : ['node', 'got'];
      const results = { [first]: await side(first), [second]: await side(second) };
      rounds.push(results);
    }
    const spread = (values, digits) =>
      `${median(values).toFixed(digits)} (${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)})`;
    const of = (client, field) => rounds.map((round) => round[client][field]);
    console.log(
      `the worker's HTTP client alone, ${SENDER_DELIVERIES} deliveries per side and round, ${concurrency} at a time, ${rounds.length} rounds, median (min–max):`,
    );
    console.log(
      `  got (built once): ${spread(of('got', 'cpuMsPerDelivery'), 3)} CPU ms per delivery, ${spread(of('got', 'perSecond'), 0)}/s`,
    );
    console.log(
      `  node:http: ${spread(of('node', 'cpuMsPerDelivery'), 3)} CPU ms per delivery, ${spread(of('node', 'perSecond'), 0)}/s`,
    );
    console.log(
      `  ratio of CPU per delivery got / node:http: ${spread(
        rounds.map((round) => round.got.cpuMsPerDelivery / round.node.cpuMsPerDelivery),
        2,
      )}`,
    );
  } finally {
    await sender.stop();
  }
}

/**
 * Offers `rate` events/s for `seconds`. Answers the rate the source appended at (first to last commit), the
 * rate deliveries arrived at (first to last arrival: equal to the appended rate when the worker keeps up,
 * lower when a queue builds), the same counted from the first commit to the last arrival (one event's
 * latency included, so a little under the appended rate even when the worker keeps up), how long after its
 * commit the last event arrived, event → delivery p50/p99 and CPU per delivery.
 */
async function streamPhase(receiver, source, costed, rate, seconds) {
  await receiver.call({ cmd: 'reset' });
  let count = 0;
  const { result, cpu } = await costed(rate * seconds, async () => {
    const committed = new Map(await source.call({ cmd: 'stream', rate, seconds, tickMs: STREAM_TICK_MS }));
    count = committed.size;
    await waitForCount(receiver, committed.size, 120_000);
    return committed;
  });
  const times = await receiver.call({ cmd: 'times' });
  const latencies = times
    .filter(([id]) => result.has(id))
    .map(([id, at]) => at - result.get(id))
    .sort((a, b) => a - b);
  const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))];
  const commits = [...result.values()];
  const arrivals = times.map(([, at]) => at);
  const firstCommit = Math.min(...commits);
  const lastCommit = Math.max(...commits);
  const firstArrival = Math.min(...arrivals);
  const lastArrival = Math.max(...arrivals);
  // A tick's events commit together: a span covers its ticks, the last one's included.
  return {
    appendedRate: (count / (lastCommit - firstCommit + STREAM_TICK_MS)) * 1000,
    arrivalRate: (count / (lastArrival - firstArrival + STREAM_TICK_MS)) * 1000,
    streamRate: (count / (lastArrival - firstCommit)) * 1000,
    endLagMs: lastArrival - lastCommit,
    p50: pct(50),
    p99: pct(99),
    streamCpu: cpu,
  };
}

function report(rounds, concurrency) {
  const spread = (values, digits = 0) => {
    const fixed = (value) => value.toFixed(digits);
    return `${fixed(median(values))} (${fixed(Math.min(...values))}–${fixed(Math.max(...values))})`;
  };
  const of = (field) => rounds.map((round) => round[field]);
  const cpu = (field) =>
    ['worker', 'postgres', 'redis', 'receiver']
      .map((side) => `${side} ${median(rounds.map((round) => round[field][side])).toFixed(2)}`)
      .join(', ');
  console.log(`one worker (WEBHOOK_CONCURRENCY=${concurrency}), ${rounds.length} rounds, median (min–max):`);
  console.log(`  backlog of ${BACKLOG_EVENTS} events, deliveries/s first to last: ${spread(of('backlogRate'))}`);
  console.log(`  backlog, deliveries/s from worker start (incl. start-up): ${spread(of('backlogFromStart'))}`);
  console.log(`  backlog, ms from worker start to the first delivery: ${spread(of('firstDeliveryMs'))}`);
  console.log(
    `  backlog CPU ms per delivery: ${cpu('backlogCpu')} (the worker's with its start-up; Redis is shared with other work)`,
  );
  console.log(
    `  steady stream offered at ${STREAM_RATE_PER_S}/s, appended at ${spread(of('appendedRate'))}/s; delivered/s first to last arrival: ${spread(of('arrivalRate'))}, from the first commit: ${spread(of('streamRate'))}; the last event arrived ${spread(of('endLagMs'), 1)} ms after its commit`,
  );
  console.log(`  steady stream event → delivery p50 ms: ${spread(of('p50'), 1)}, p99 ms: ${spread(of('p99'), 1)}`);
  console.log(`  steady stream CPU ms per delivery: ${cpu('streamCpu')}`);
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
