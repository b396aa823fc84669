// Broker destinations: deliveries/s of one webhook-worker process to an HTTP receiver, a RabbitMQ exchange
// and a NATS JetStream stream in the same run, for one backlog of events already in the outbox when the worker
// starts, each event delivered to all three. Rates are first to last arrival at each reader (the receiver
// process; a queue bound to the exchange and a JetStream consumer read in this process). Several rounds, each
// with a fresh worker; figures as median (min–max). The machine's RabbitMQ and NATS, names unique per run.
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import amqp from 'amqplib';
import { connect as natsConnect, nanos } from '@nats-io/transport-node';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import pg from 'pg';
import { AuditService } from '@wms/identity';
import { createSequelize } from '@wms/platform';
import { WebhooksService } from '@wms/webhooks';
import { ROUNDS, median, peakRssMb, prepareBenchEnv, startApp, startHelper } from './lib.mjs';

const EVENTS = Number(process.env.BENCH_DESTINATION_EVENTS ?? 2_000);
const AMQP_URL = process.env.BENCH_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const NATS_URL = process.env.BENCH_NATS_URL ?? 'nats://127.0.0.1:4222';

export default async function destinationsBench() {
  const bench = await prepareBenchEnv('destinations', {
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    LOG_LEVEL: 'info',
    ...JSON.parse(process.env.BENCH_ENV ?? '{}'),
  });
  const logFile = join(tmpdir(), `wms-bench-destinations-worker-${process.pid}.log`);
  const sequelize = createSequelize({ ...bench.config, databasePoolMax: 2 });
  const client = new pg.Client({ connectionString: bench.config.databaseUrl });
  await client.connect();
  const name = `wms-bench-${randomBytes(4).toString('hex')}`;
  const started = [];
  let worker;
  let rabbit;
  let nats;
  try {
    const {
      rows: [tenant],
    } = await client.query("SELECT id FROM tenants WHERE code = 'DEFAULT'");
    const receiver = await startHelper('receiver');
    started.push(receiver);
    const source = await startHelper('event-source', { ...bench.env, TENANT_ID: tenant.id });
    started.push(source);
    rabbit = await rabbitReader(name);
    nats = await natsReader(name.replace(/-/g, '_'), name);
    const db = { sequelize };
    const webhooks = new WebhooksService(db, { ...bench.config, nodeEnv: 'test' }, new AuditService(db));
    await webhooks.create({ url: `${receiver.ready.url}/hook`, events: ['*'] }, tenant.id, null);
    await webhooks.create(
      { destination: { kind: 'rabbitmq', url: AMQP_URL, exchange: name }, events: ['*'] },
      tenant.id,
      null,
    );
    await webhooks.create(
      {
        destination: { kind: 'nats', url: NATS_URL, stream: nats.stream, subject: `${name}.{event}.{documentKey}` },
        events: ['*'],
      },
      tenant.id,
      null,
    );

    const rounds = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      await receiver.call({ cmd: 'reset' });
      rabbit.times.length = 0;
      nats.times.length = 0;
      await source.call({ cmd: 'append', count: EVENTS });
      worker = await startApp('webhook-worker', bench.env, { logFile });
      await waitUntil(async () => (await receiver.call({ cmd: 'count' })) >= EVENTS, 'HTTP deliveries');
      await waitUntil(() => rabbit.times.length >= EVENTS, 'RabbitMQ deliveries');
      await waitUntil(() => nats.times.length >= EVENTS, 'JetStream deliveries');
      const http = (await receiver.call({ cmd: 'times' })).map(([, at]) => at);
      rounds.push({ http: rate(http), rabbitmq: rate(rabbit.times), nats: rate(nats.times) });
      console.log(`peak RSS, round ${round + 1}: webhook-worker ${peakRssMb(worker.pid).toFixed(0)} MB`);
      await worker.stop();
      worker = undefined;
    }
    const spread = (values) =>
      `${median(values).toFixed(0)} (${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)})`;
    const of = (kind) => rounds.map((round) => round[kind]);
    console.log(
      `one worker (WEBHOOK_CONCURRENCY=${bench.config.webhook.concurrency}), a backlog of ${EVENTS} events to three ` +
        `subscriptions at once, ${rounds.length} rounds, deliveries/s first to last, median (min–max):`,
    );
    console.log(`  HTTP: ${spread(of('http'))}`);
    console.log(`  RabbitMQ (publisher confirms): ${spread(of('rabbitmq'))}`);
    console.log(`  NATS JetStream (PubAck): ${spread(of('nats'))}`);
    const slower = ['rabbitmq', 'nats'].filter((kind) => median(of(kind)) < median(of('http')));
    if (slower.length > 0) console.log(`  — ${slower.join(' and ')} SLOWER THAN HTTP`);
  } finally {
    await worker?.stop();
    await rabbit?.close();
    await nats?.close();
    for (const helper of started.reverse()) await helper.stop();
    await client.end();
    await sequelize.close();
    await bench.cleanup();
  }
}

/** Deliveries per second from the first arrival to the last. */
const rate = (times) => ((times.length - 1) / (Math.max(...times) - Math.min(...times))) * 1000;

async function waitUntil(condition, what, timeoutMs = 180_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`${what} did not all arrive within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A topic exchange with an exclusive queue bound to every key: the arrival time of each message. */
async function rabbitReader(exchange) {
  const connection = await amqp.connect(AMQP_URL);
  const channel = await connection.createChannel();
  await channel.assertExchange(exchange, 'topic', { durable: false });
  const { queue } = await channel.assertQueue('', { exclusive: true });
  await channel.bindQueue(queue, exchange, '#');
  const times = [];
  await channel.consume(
    queue,
    (message) => {
      if (message) times.push(Date.now());
    },
    { noAck: true },
  );
  return {
    times,
    async close() {
      await channel.deleteExchange(exchange).catch(() => undefined);
      await connection.close().catch(() => undefined);
    },
  };
}

/** A stream over `<subjectRoot>.>` and an ordered consumer: the arrival time of each message. */
async function natsReader(stream, subjectRoot) {
  const connection = await natsConnect({ servers: NATS_URL });
  const manager = await jetstreamManager(connection);
  await manager.streams.add({ name: stream, subjects: [`${subjectRoot}.>`], duplicate_window: nanos(120_000) });
  const iterator = await (await jetstream(connection).consumers.get(stream)).consume();
  const times = [];
  void (async () => {
    for await (const _message of iterator) times.push(Date.now());
  })();
  return {
    stream,
    times,
    async close() {
      await iterator.close().catch(() => undefined);
      await manager.streams.delete(stream).catch(() => undefined);
      await connection.close().catch(() => undefined);
    },
  };
}
