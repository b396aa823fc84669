import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect as tcpConnect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import amqp from 'amqplib';
import { connect as natsConnect, nanos, type NatsConnection } from '@nats-io/transport-node';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { endsWithThisProcess } from './child-processes.js';
import { freePort } from './redis-servers.js';
import { waitFor } from './wait.js';

/** The shared RabbitMQ and NATS of the machine (never stopped by a test; names are unique per test file). */
export const SHARED_AMQP_URL = process.env.TEST_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
export const SHARED_NATS_URL = process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222';

/** A message as a reader of the broker got it: its address, body, headers and the broker's message id. */
export interface BrokerMessage {
  address: string;
  body: string;
  headers: Record<string, string>;
  messageId: string | undefined;
  receivedAt: number;
}

export interface BrokerReader {
  messages: BrokerMessage[];
  waitFor(count: number, timeoutMs?: number): Promise<BrokerMessage[]>;
  close(): Promise<void>;
}

/** A name no other test file uses: `prefix` and random hex. */
export const uniqueName = (prefix: string) => `${prefix}-${randomBytes(4).toString('hex')}`;

function reader(messages: BrokerMessage[], close: () => Promise<void>): BrokerReader {
  return {
    messages,
    async waitFor(count, timeoutMs = 20_000) {
      await waitFor(() => messages.length >= count, timeoutMs, `${count} broker message(s)`);
      return messages;
    },
    close,
  };
}

/** A topic exchange of the shared RabbitMQ with an exclusive queue bound to every routing key, read as it fills. */
export async function rabbitMqReader(exchange: string, url = SHARED_AMQP_URL): Promise<BrokerReader> {
  const connection = await amqp.connect(url);
  const channel = await connection.createChannel();
  await channel.assertExchange(exchange, 'topic', { durable: false, autoDelete: false });
  const { queue } = await channel.assertQueue('', { exclusive: true });
  await channel.bindQueue(queue, exchange, '#');
  const messages: BrokerMessage[] = [];
  await channel.consume(queue, (message) => {
    if (!message) return;
    messages.push({
      address: message.fields.routingKey,
      body: message.content.toString('utf8'),
      headers: Object.fromEntries(
        Object.entries(message.properties.headers ?? {}).map(([name, value]) => [name, String(value)]),
      ),
      messageId: message.properties.messageId as string | undefined,
      receivedAt: Date.now(),
    });
    channel.ack(message);
  });
  return reader(messages, async () => {
    await channel.deleteExchange(exchange).catch(() => undefined);
    await connection.close().catch(() => undefined);
  });
}

/** A JetStream stream over `subjects` (made here) and an ordered consumer reading it from the start. */
export async function jetStreamReader(stream: string, subjects: string, url = SHARED_NATS_URL): Promise<BrokerReader> {
  const connection: NatsConnection = await natsConnect({ servers: url, reconnect: true, maxReconnectAttempts: -1 });
  const manager = await jetstreamManager(connection);
  await manager.streams.add({ name: stream, subjects: [subjects], duplicate_window: nanos(120_000) });
  const consumer = await jetstream(connection).consumers.get(stream);
  const iterator = await consumer.consume();
  const messages: BrokerMessage[] = [];
  void (async () => {
    for await (const message of iterator) {
      const headers: Record<string, string> = {};
      for (const name of message.headers?.keys() ?? []) headers[name] = message.headers!.get(name);
      messages.push({
        address: message.subject,
        body: message.string(),
        headers,
        messageId: headers['Nats-Msg-Id'],
        receivedAt: Date.now(),
      });
    }
  })();
  return reader(messages, async () => {
    await iterator.close().catch(() => undefined);
    await manager.streams.delete(stream).catch(() => undefined);
    await connection.close().catch(() => undefined);
  });
}

/** A private `nats-server -js` on a free port with a store of its own: a spec may stop and start it. */
export interface PrivateNats {
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops it and removes its store. */
  destroy(): Promise<void>;
}

const answers = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = tcpConnect(port, '127.0.0.1', () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });

export async function startPrivateNats(): Promise<PrivateNats> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), `wms-nats-${port}-`));
  let child: ChildProcess | undefined;
  const start = async () => {
    child = endsWithThisProcess(
      spawn('nats-server', ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', dir], { stdio: 'ignore' }),
    );
    await waitFor(() => answers(port), 10_000, `nats-server on ${port}`);
  };
  const stop = async () => {
    const running = child;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
    running.kill('SIGTERM');
    await exited;
  };
  await start();
  return {
    url: `nats://127.0.0.1:${port}`,
    stop,
    start,
    async destroy() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A TCP proxy in front of a port of this machine: cut drops every connection and refuses new ones until heal,
 * as a stopped server does (tcp-proxy.ts's cut is a black hole instead: connections stay open, nothing arrives).
 */
export interface DroppingProxy {
  port: number;
  cut(): Promise<void>;
  heal(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Stands in for a broker that stops and starts (the shared RabbitMQ is never stopped): the destination points at
 * the proxy, and the spec cuts and heals it.
 */
export async function startDroppingProxy(targetPort: number): Promise<DroppingProxy> {
  const port = await freePort();
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  };
  const server: Server = createServer((client) => {
    track(client);
    const upstream = tcpConnect(targetPort, '127.0.0.1');
    track(upstream);
    client.pipe(upstream).pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  const listen = () => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const cut = async () => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    await closed;
  };
  await listen();
  return { port, cut, heal: listen, close: () => (server.listening ? cut() : Promise.resolve()) };
}

/** A proxy in front of RabbitMQ that can tell its clients the broker blocked them (`connection.blocked`). */
export interface AmqpBlockingProxy {
  port: number;
  /** Sends Connection.Blocked to every client, as RabbitMQ does when short of memory or disk. */
  block(reason: string): void;
  /** Sends Connection.Unblocked to every client. */
  unblock(): void;
  close(): Promise<void>;
}

const FRAME_END = 0xce;

/** An AMQP 0-9-1 method frame on channel 0 of the connection class (10). */
function connectionMethodFrame(method: number, args: Buffer): Buffer {
  const payload = Buffer.concat([Buffer.from([0, 10, method >> 8, method & 0xff]), args]);
  const header = Buffer.alloc(7);
  header.writeUInt8(1, 0);
  header.writeUInt16BE(0, 1);
  header.writeUInt32BE(payload.length, 3);
  return Buffer.concat([header, payload, Buffer.from([FRAME_END])]);
}

/**
 * Forwards the broker's bytes frame by frame, so a Connection.Blocked it adds falls between two frames, as the
 * broker's own would (the broker itself is never made short of anything: it is shared).
 */
export async function startAmqpBlockingProxy(targetPort = 5672): Promise<AmqpBlockingProxy> {
  const port = await freePort();
  const clients = new Set<Socket>();
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = tcpConnect(targetPort, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    clients.add(client);
    client.on('close', () => clients.delete(client));
    client.pipe(upstream);
    let pending = Buffer.alloc(0);
    upstream.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 7) {
        const end = 7 + pending.readUInt32BE(3) + 1;
        if (pending.length < end) break;
        client.write(pending.subarray(0, end));
        pending = pending.subarray(end);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const toClients = (frame: Buffer) => {
    for (const client of clients) client.write(frame);
  };
  return {
    port,
    block(reason) {
      const text = Buffer.from(reason);
      toClients(connectionMethodFrame(60, Buffer.concat([Buffer.from([text.length]), text])));
    },
    unblock: () => toClients(connectionMethodFrame(61, Buffer.alloc(0))),
    close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      return closed;
    },
  };
}
