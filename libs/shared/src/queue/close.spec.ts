import { createServer, type AddressInfo, type Server } from 'node:net';
import { QueueEvents } from 'bullmq';
import { createIngestQueue, createRedis, closeWithin } from '../index.js';
import { waitFor } from '@wms/testing';

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
    // The connections end (and BullMQ reports it) after the close has returned.
    await new Promise((resolve) => setTimeout(resolve, 500));

    expect(unhandled).toEqual([]);
  });
});
