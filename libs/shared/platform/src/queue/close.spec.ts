import { createServer, type AddressInfo, type Server } from 'node:net';
import { Queue, QueueEvents, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { createRedis } from '../redis/index.js';
import { closeWithin } from './close.js';
import { createIngestQueue } from '@wms/ingest';
import { startRedisServer, waitFor, type PrivateRedis } from '@wms/testing';

// A "Redis" that hangs up on every connection: the clients keep failing while they are closed.
describe('closing BullMQ objects while Redis is away', () => {
  let hangUp: Server;
  let attempts = 0;
  let url: string;
  const unhandled: unknown[] = [];
  const record = (reason: unknown) => unhandled.push(reason);

  beforeAll(async () => {
    hangUp = createServer((socket) => {
      attempts += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => hangUp.listen(0, '127.0.0.1', resolve));
    url = `redis://127.0.0.1:${(hangUp.address() as AddressInfo).port}`;
    process.on('unhandledRejection', record);
    process.on('uncaughtException', record);
  });
  afterAll(async () => {
    process.off('unhandledRejection', record);
    process.off('uncaughtException', record);
    await new Promise((resolve) => hangUp.close(resolve));
  });

  it('when QueueEvents and a queue are closed before their connections ever came up, their failure afterwards is not an unhandled error', async () => {
    for (let round = 0; round < 5; round += 1) {
      let closing = false;
      const template = createRedis({ redisUrl: url }, 'subscriber', 'close-spec', {
        lazyConnect: true,
        retryStrategy: (attempt) => (closing ? null : Math.min(attempt * 20, 200)),
      });
      const producer = createRedis({ redisUrl: url }, 'producer', 'close-spec');
      const events = new QueueEvents('close-spec', { connection: template, prefix: 'close-spec' });
      const queue = createIngestQueue({ connection: producer, prefix: 'close-spec' });
      events.on('error', () => undefined);
      queue.on('error', () => undefined);
      const before = attempts;
      await waitFor(() => attempts >= before + 2, 5_000, 'the connections to fail');

      closing = true;
      await closeWithin(events, 2_500);
      await closeWithin(queue, 2_000);
      template.disconnect();
      producer.disconnect();
    }
    // An observation window, not a wait: the connections end (and BullMQ reports it) after the close has
    // returned, and nothing signals that the last report is in; an unhandled error would surface within it.
    await new Promise((resolve) => setTimeout(resolve, 500));

    expect(unhandled).toEqual([]);
  });
});

// A worker on a Redis of its own, which the tests kill: never the shared one.
describe('closing a worker', () => {
  let redis: PrivateRedis;
  let connection: Redis;
  let worker: Worker | undefined;

  beforeEach(async () => {
    redis = await startRedisServer();
    connection = createRedis({ redisUrl: redis.url }, 'worker', 'close-spec-worker') as Redis;
  });
  afterEach(async () => {
    if (worker) await closeWithin(worker, 2_000, true);
    worker = undefined;
    connection.disconnect();
    await redis.stop();
  });

  it('when Redis went away and the connections are reconnecting, a graceful close still returns (forced)', async () => {
    worker = new Worker('close-spec', async () => undefined, { connection, prefix: 'close-spec' });
    worker.on('error', () => undefined);
    await worker.waitUntilReady();
    await redis.kill();
    await waitFor(() => connection.status === 'reconnecting', 5_000, 'the connection to reconnect');
    const closedEvent = new Promise<'closed'>((resolve) => worker!.once('closed', () => resolve('closed')));

    // BullMQ's own graceful close waits for an 'end' that a socketless client never emits: before, this
    // returned only at jest's timeout.
    await closeWithin(worker, undefined);

    expect(await closedEvent).toBe('closed');
  });

  it('when Redis is up, a graceful close lets the active job finish and record its outcome first', async () => {
    const producer = createRedis({ redisUrl: redis.url }, 'producer', 'close-spec-producer');
    const queue = new Queue('close-spec', { connection: producer, prefix: 'close-spec' });
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    worker = new Worker(
      'close-spec',
      async () => {
        started();
        await released;
        return 'done';
      },
      { connection, prefix: 'close-spec' },
    );
    worker.on('error', () => undefined);
    const job = await queue.add('slow', {});
    await running;

    // The job is let go only after the close has begun: a close that did not wait would leave it active.
    const closing = closeWithin(worker, undefined);
    await waitFor(() => worker!.closing !== undefined, 5_000, 'the close to begin');
    release();
    await closing;

    expect(await queue.getJobState(job.id!)).toBe('completed');
    await queue.close();
    producer.disconnect();
  });
});
