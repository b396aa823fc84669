import { createServer, type Server, type Socket } from 'node:net';
import type { AppendEventInput } from '@wms/events';
import type { WebhookDelivery } from '@wms/webhooks';
import {
  appendEvents,
  busiestWindow,
  createSubscription,
  createTenantWithWarehouse,
  createTestContext,
  freePort,
  jetStreamReader,
  rabbitMqReader,
  startAmqpBlockingProxy,
  startPrivateNats,
  startDroppingProxy,
  startTestWebhookWorker,
  startWebhookReceiver,
  uniqueName,
  waitFor,
  type BrokerReader,
  type PrivateNats,
  type TestContext,
  type WebhookReceiver,
} from '@wms/testing';

const adjustment = (tenantId: string, index: number): AppendEventInput => ({
  tenantId,
  event: 'stock.adjusted',
  data: {
    warehouseCode: 'MAIN',
    locationCode: `A-${index % 4}`,
    sku: `SKU-${index}`,
    lotNo: null,
    qtyDelta: 1,
    qtyOnHand: 10 + index,
    reason: 'count',
  },
});

const events = (tenantId: string, from: number, count: number) =>
  Array.from({ length: count }, (_v, index) => adjustment(tenantId, from + index));

/** A TCP server that accepts connections and never answers: a broker that hangs. */
async function silentServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    port,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

describe('broker destinations that stop, hang or pace', () => {
  let ctx: TestContext;
  let receiver: WebhookReceiver;
  let privateNats: PrivateNats;
  const readers: BrokerReader[] = [];

  beforeAll(async () => {
    ctx = await createTestContext('broker-outages', { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
    receiver = await startWebhookReceiver();
    privateNats = await startPrivateNats();
  });
  afterAll(async () => {
    await Promise.all(readers.map((reader) => reader.close()));
    await privateNats.destroy();
    await receiver.close();
    await ctx.close();
  });

  const deliveriesOf = (subscriptionId: string): Promise<WebhookDelivery[]> =>
    ctx.services.webhooks.listDeliveries(subscriptionId, { tenantId: null }, { limit: 100 });

  it('when the NATS server stops mid-stream and starts again, nothing is lost and each event is read once by webhook-id', async () => {
    const worker = startTestWebhookWorker(ctx, { webhook: { backoffBaseMs: 200, maxAttempts: 20, timeoutMs: 1_000 } });
    const { tenant } = await createTenantWithWarehouse(ctx);
    const stream = uniqueName('WMS_OUTAGE').replace(/-/g, '_');
    const reader = await jetStreamReader(stream, 'outage.>', privateNats.url);
    readers.push(reader);
    const subscription = await ctx.services.webhooks.create(
      {
        destination: { kind: 'nats', url: privateNats.url, stream, subject: 'outage.{event}.{documentKey}' },
        events: ['*'],
      },
      tenant.id,
      null,
    );
    await appendEvents(ctx, events(tenant.id, 0, 10));
    await reader.waitFor(10);

    await privateNats.stop();
    const appended = await appendEvents(ctx, events(tenant.id, 10, 10));
    await waitFor(async () =>
      (await deliveriesOf(subscription.id)).some((d) => d.status === 'pending' && d.attempts > 0),
    );
    await privateNats.start();
    await waitFor(async () => {
      const deliveries = await deliveriesOf(subscription.id);
      return deliveries.length === 20 && deliveries.every((d) => d.status === 'succeeded');
    }, 60_000);
    await waitFor(() => new Set(reader.messages.map((m) => m.headers['webhook-id'])).size >= 20, 30_000);
    await worker.close();

    const ids = new Set(reader.messages.map((m) => m.headers['webhook-id']));
    expect(ids.size).toBe(20);
    for (const event of appended) expect(ids.has(event.id)).toBe(true);
    for (const message of reader.messages) expect(message.messageId).toBe(message.headers['webhook-id']);
  }, 120_000);

  it('when the way to RabbitMQ is cut mid-stream and healed, nothing is lost and each event is read once by messageId', async () => {
    const worker = startTestWebhookWorker(ctx, { webhook: { backoffBaseMs: 200, maxAttempts: 20, timeoutMs: 1_000 } });
    const proxy = await startDroppingProxy(5672);
    try {
      const { tenant } = await createTenantWithWarehouse(ctx);
      const exchange = uniqueName('wms-outage');
      const reader = await rabbitMqReader(exchange);
      readers.push(reader);
      const subscription = await ctx.services.webhooks.create(
        {
          destination: { kind: 'rabbitmq', url: `amqp://guest:guest@127.0.0.1:${proxy.port}`, exchange },
          events: ['*'],
        },
        tenant.id,
        null,
      );
      await appendEvents(ctx, events(tenant.id, 0, 10));
      await reader.waitFor(10);

      await proxy.cut();
      const appended = await appendEvents(ctx, events(tenant.id, 10, 10));
      await waitFor(async () =>
        (await deliveriesOf(subscription.id)).some((d) => d.status === 'pending' && d.attempts > 0),
      );
      await proxy.heal();
      await waitFor(async () => {
        const deliveries = await deliveriesOf(subscription.id);
        return deliveries.length === 20 && deliveries.every((d) => d.status === 'succeeded');
      }, 60_000);
      await waitFor(() => new Set(reader.messages.map((m) => m.messageId)).size >= 20, 30_000);
      await worker.close();

      const ids = new Set(reader.messages.map((m) => m.messageId));
      expect(ids.size).toBe(20);
      for (const event of appended) expect(ids.has(event.id)).toBe(true);
    } finally {
      await proxy.close();
    }
  }, 120_000);

  it('when RabbitMQ blocks the connection, deliveries fail with backoff until it unblocks, then arrive', async () => {
    const worker = startTestWebhookWorker(ctx, { webhook: { backoffBaseMs: 300, maxAttempts: 20, timeoutMs: 2_000 } });
    const proxy = await startAmqpBlockingProxy();
    try {
      const { tenant } = await createTenantWithWarehouse(ctx);
      const exchange = uniqueName('wms-blocked');
      const reader = await rabbitMqReader(exchange);
      readers.push(reader);
      const subscription = await ctx.services.webhooks.create(
        {
          destination: { kind: 'rabbitmq', url: `amqp://guest:guest@127.0.0.1:${proxy.port}`, exchange },
          events: ['*'],
        },
        tenant.id,
        null,
      );
      await appendEvents(ctx, events(tenant.id, 0, 1));
      await reader.waitFor(1);

      proxy.block('low on memory');
      // The worker takes the Blocked frame in on its own time: an event published before it did is confirmed
      // as usual, so events go on being appended, one at a time, until one is refused for the block.
      let appended = 1;
      let blocked: WebhookDelivery | undefined;
      while (!blocked && appended < 6) {
        await appendEvents(ctx, events(tenant.id, appended, 1));
        appended += 1;
        const settled = await waitFor(
          () => deliveriesOf(subscription.id),
          (deliveries) =>
            deliveries.length === appended &&
            deliveries.every((d) => d.status === 'succeeded' || (d.status === 'pending' && d.attempts >= 2)),
          15_000,
          'the newest event confirmed, or refused twice',
        );
        blocked = settled.find((d) => d.status === 'pending');
      }
      proxy.unblock();
      await reader.waitFor(appended);
      await worker.close();

      expect(blocked!.lastError).toContain('RabbitMQ connection blocked: low on memory');
      expect(blocked!.nextAttemptAt).not.toBeNull();
    } finally {
      await proxy.close();
    }
  }, 60_000);

  it('when a RabbitMQ subscription allows 5 deliveries a second, the queue receives them at that pace', async () => {
    const worker = startTestWebhookWorker(ctx, { webhook: { backoffBaseMs: 200, maxAttempts: 5 } });
    const { tenant } = await createTenantWithWarehouse(ctx);
    const exchange = uniqueName('wms-rate');
    const reader = await rabbitMqReader(exchange);
    readers.push(reader);
    await ctx.services.webhooks.create(
      {
        destination: { kind: 'rabbitmq', url: 'amqp://guest:guest@127.0.0.1:5672', exchange },
        events: ['*'],
        maxDeliveriesPerSecond: 5,
      },
      tenant.id,
      null,
    );

    await appendEvents(ctx, events(tenant.id, 0, 16));
    const received = await reader.waitFor(16, 60_000);
    await worker.close();

    const times = received.map((message) => message.receivedAt).sort((a, b) => a - b);
    const spanMs = times.at(-1)! - times[0]!;
    // As the HTTP pace spec reads it: an event-loop stall of this busy process may stamp held-back messages
    // together, so one window may count up to twice the rate; the pace over the whole burst holds it to 5 %.
    expect(busiestWindow(times, 1_000)).toBeLessThanOrEqual(5 * 2);
    expect((times.length - 1) / (spanMs / 1_000)).toBeLessThanOrEqual(5 * 1.05);
  }, 90_000);

  it('when a broker hangs, HTTP deliveries of the same events all arrive while the broker’s are still pending', async () => {
    const worker = startTestWebhookWorker(ctx, { webhook: { backoffBaseMs: 5_000, maxAttempts: 3, timeoutMs: 3_000 } });
    const silent = await silentServer();
    try {
      const { tenant } = await createTenantWithWarehouse(ctx);
      const broker = await ctx.services.webhooks.create(
        {
          destination: { kind: 'rabbitmq', url: `amqp://guest:guest@127.0.0.1:${silent.port}`, exchange: 'hung' },
          events: ['*'],
        },
        tenant.id,
        null,
      );
      const http = await createSubscription(ctx, {
        url: receiver.urlFor('/beside-a-hung-broker'),
        tenantId: tenant.id,
      });

      await appendEvents(ctx, events(tenant.id, 0, 30));
      await receiver.waitForRequests('/beside-a-hung-broker', 30, 30_000);
      const brokerDeliveries = await deliveriesOf(broker.id);
      await waitFor(async () => (await deliveriesOf(http.id)).every((d) => d.status === 'succeeded'));
      const httpDeliveries = await deliveriesOf(http.id);
      await worker.close();

      expect(brokerDeliveries.every((d) => d.status === 'pending')).toBe(true);
      expect(httpDeliveries.every((d) => d.attempts === 1)).toBe(true);
    } finally {
      await silent.close();
    }
  }, 90_000);
});
