import { Webhook } from 'standardwebhooks';
import { businessEventNames, type AppendEventInput } from '@wms/events';
import { SecretBox, resealSecrets, type CreatedWebhookSubscription, type WebhookDelivery } from '@wms/webhooks';
import {
  SHARED_AMQP_URL,
  SHARED_NATS_URL,
  appendEvents,
  createTenantWithWarehouse,
  createTestContext,
  jetStreamReader,
  rabbitMqReader,
  sampleEvents,
  startTestWebhookWorker,
  uniqueName,
  waitFor,
  type BrokerMessage,
  type BrokerReader,
  type TestContext,
} from '@wms/testing';

const fastRetries = { backoffBaseMs: 200, maxAttempts: 3, timeoutMs: 2_000 };

/** Order events of one order number, numbered in `step`. */
const orderEvent = (tenantId: string, orderNo: string, step: number): AppendEventInput => ({
  tenantId,
  event: 'order.cancelled',
  data: { orderNo, referenceNo: `step-${step}`, previousStatus: 'open' },
});

const verifies = (message: BrokerMessage, secret: string) => {
  try {
    new Webhook(secret).verify(message.body, message.headers);
    return true;
  } catch {
    return false;
  }
};

describe('RabbitMQ and NATS JetStream destinations', () => {
  let ctx: TestContext;
  const readers: BrokerReader[] = [];

  beforeAll(async () => {
    ctx = await createTestContext('broker-destinations', { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
  });
  afterAll(async () => {
    await Promise.all(readers.map((reader) => reader.close()));
    await ctx.close();
  });

  const deliveriesOf = (subscriptionId: string): Promise<WebhookDelivery[]> =>
    ctx.services.webhooks.listDeliveries(subscriptionId, { tenantId: null });

  async function rabbitMq(tenantId: string, extra: Record<string, unknown> = {}, url = SHARED_AMQP_URL) {
    const exchange = uniqueName('wms-spec');
    const reader = await rabbitMqReader(exchange);
    readers.push(reader);
    const subscription = await ctx.services.webhooks.create(
      { destination: { kind: 'rabbitmq', url, exchange }, events: ['*'], ...extra },
      tenantId,
      null,
    );
    return { reader, subscription, exchange };
  }

  async function nats(tenantId: string, extra: Record<string, unknown> = {}, url = SHARED_NATS_URL) {
    const stream = uniqueName('WMS_SPEC').replace(/-/g, '_');
    const subjectRoot = uniqueName('wmsspec');
    const reader = await jetStreamReader(stream, `${subjectRoot}.>`, url);
    readers.push(reader);
    const subscription = await ctx.services.webhooks.create(
      {
        destination: { kind: 'nats', url, stream, subject: `${subjectRoot}.{event}.{documentKey}` },
        events: ['*'],
        ...extra,
      },
      tenantId,
      null,
    );
    return { reader, subscription, subjectRoot };
  }

  function expectSignedBodies(messages: BrokerMessage[], subscription: CreatedWebhookSubscription) {
    for (const message of messages) {
      const body = JSON.parse(message.body) as { id: string };
      expect(verifies(message, subscription.secret)).toBe(true);
      expect(message.headers['webhook-id']).toBe(body.id);
      expect(message.messageId).toBe(body.id);
    }
  }

  it('when each business event occurs, it reaches a queue bound to the exchange and a JetStream consumer, signed', async () => {
    const worker = startTestWebhookWorker(ctx, { webhook: fastRetries });
    const { tenant } = await createTenantWithWarehouse(ctx);
    const amqp = await rabbitMq(tenant.id);
    const js = await nats(tenant.id);

    await appendEvents(ctx, sampleEvents(tenant.id));
    const queued = await amqp.reader.waitFor(businessEventNames.length);
    const streamed = await js.reader.waitFor(businessEventNames.length);
    await waitFor(async () => (await deliveriesOf(js.subscription.id)).every((d) => d.status === 'succeeded'));
    await worker.close();

    const eventsOf = (messages: BrokerMessage[]) => messages.map((m) => JSON.parse(m.body).event).sort();
    expect(eventsOf(queued)).toEqual([...businessEventNames].sort());
    expect(eventsOf(streamed)).toEqual([...businessEventNames].sort());
    expectSignedBodies(queued, amqp.subscription);
    expectSignedBodies(streamed, js.subscription);
    expect(queued.map((m) => m.address)).toContain('wms.order.shipped.SO-20250101-000001');
    expect(streamed.map((m) => m.address)).toContain(`${js.subjectRoot}.order.shipped.SO-20250101-000001`);
    const [delivery] = await deliveriesOf(amqp.subscription.id);
    expect(delivery).toMatchObject({ status: 'succeeded', attempts: 1, lastStatusCode: null, lastError: null });
  });

  it('when a broker subscription is read back, its URL shows no password and the answer no credentials', async () => {
    const { tenant } = await createTenantWithWarehouse(ctx);
    const { subscription } = await rabbitMq(tenant.id);

    const read = await ctx.services.webhooks.get(subscription.id, { tenantId: null });

    expect(read.url).toBe('amqp://guest:****@127.0.0.1:5672');
    expect(read.destination).toMatchObject({ kind: 'rabbitmq', routingKey: 'wms.{event}.{documentKey}' });
    expect(JSON.stringify(read)).not.toContain('guest@');
    const [stored] = (await ctx.runtime.db.sequelize.query(
      'SELECT destination_secret_sealed AS sealed FROM webhook_subscriptions WHERE id = $1',
      { bind: [subscription.id] },
    )) as [Array<{ sealed: string }>, unknown];
    expect(stored[0]!.sealed).toMatch(/^v2:/);
    expect(stored[0]!.sealed).not.toContain('guest');
  });

  it('when an ordered subscription gets several documents’ events, each document’s arrive in sequence order', async () => {
    const worker = startTestWebhookWorker(ctx, { webhook: fastRetries });
    const { tenant } = await createTenantWithWarehouse(ctx);
    const amqp = await rabbitMq(tenant.id, { ordered: true });
    const js = await nats(tenant.id, { ordered: true });

    for (let step = 1; step <= 5; step += 1) {
      await appendEvents(
        ctx,
        ['SO-A', 'SO-B', 'SO-C'].map((orderNo) => orderEvent(tenant.id, orderNo, step)),
      );
    }
    const queued = await amqp.reader.waitFor(15);
    const streamed = await js.reader.waitFor(15);
    await worker.close();

    for (const messages of [queued, streamed]) {
      for (const orderNo of ['SO-A', 'SO-B', 'SO-C']) {
        const steps = messages
          .map((m) => JSON.parse(m.body) as { data: { orderNo: string; referenceNo: string } })
          .filter((body) => body.data.orderNo === orderNo)
          .map((body) => body.data.referenceNo);
        expect(steps).toEqual(['step-1', 'step-2', 'step-3', 'step-4', 'step-5']);
      }
    }
  });

  it('when RabbitMQ refuses the credentials, the delivery fails after its attempts and a recover after the fix delivers it', async () => {
    const worker = startTestWebhookWorker(ctx, { webhook: fastRetries });
    const { tenant } = await createTenantWithWarehouse(ctx);
    const amqp = await rabbitMq(tenant.id, {}, 'amqp://guest:wrong-password@127.0.0.1:5672');
    const since = new Date(Date.now() - 60_000).toISOString();

    await appendEvents(ctx, [orderEvent(tenant.id, 'SO-REFUSED', 1)]);
    await waitFor(async () => (await deliveriesOf(amqp.subscription.id))[0]?.status === 'failed', 30_000);
    const [failed] = await deliveriesOf(amqp.subscription.id);
    await ctx.services.webhooks.update(
      amqp.subscription.id,
      { destination: { kind: 'rabbitmq', url: SHARED_AMQP_URL, exchange: amqp.exchange } },
      { tenantId: null },
    );
    await ctx.services.webhookLifecycle.recover(amqp.subscription.id, { since }, { tenantId: null }, null);
    const [message] = await amqp.reader.waitFor(1);
    await worker.close();

    expect(failed).toMatchObject({ status: 'failed', attempts: fastRetries.maxAttempts });
    expect(failed!.lastError).toMatch(/ACCESS.REFUSED|403/i);
    expect(failed!.lastError).not.toContain('wrong-password');
    expect(JSON.parse(message!.body).data.orderNo).toBe('SO-REFUSED');
  });
  it('when a test event is sent and then replayed, the replay publishes the same webhook-id and JetStream drops it as a duplicate', async () => {
    const worker = startTestWebhookWorker(ctx, { webhook: fastRetries });
    const { tenant } = await createTenantWithWarehouse(ctx);
    const js = await nats(tenant.id);
    const viewer = { tenantId: null };

    const test = await ctx.services.webhooks.sendTest(js.subscription.id, viewer);
    const [first] = await js.reader.waitFor(1);
    await waitFor(async () => (await deliveriesOf(js.subscription.id))[0]?.status === 'succeeded');
    const eventId = JSON.parse(first!.body).id as string;
    await ctx.services.webhookLifecycle.replay(js.subscription.id, { eventId }, viewer, null);
    await waitFor(async () => {
      const [delivery] = await deliveriesOf(js.subscription.id);
      return delivery?.status === 'succeeded' && delivery.updatedAt > test.updatedAt;
    });
    const attempts = await ctx.services.webhooks.deliveryAttempts(js.subscription.id, test.id, viewer);
    await worker.close();

    expect(JSON.parse(first!.body).event).toBe('webhook.test');
    expect(attempts).toHaveLength(2);
    expect(attempts.map((attempt) => attempt.responseBody).join(' ')).toContain('duplicate dropped');
    expect(js.reader.messages).toHaveLength(1);
  });

  it('when the key ring gets a new first key, secrets:reseal re-seals broker destinations under it', async () => {
    const { tenant } = await createTenantWithWarehouse(ctx);
    const amqp = await rabbitMq(tenant.id);
    const ring = ctx.config.secretsEncryptionKeys!;
    const newKey = { id: 'rotated', key: Buffer.alloc(32, 9) };
    const box = new SecretBox([newKey], [], ring);

    const report = await resealSecrets(ctx.runtime.db, box);

    const [rows] = (await ctx.runtime.db.sequelize.query(
      'SELECT destination_secret_sealed AS sealed FROM webhook_subscriptions WHERE id = $1',
      { bind: [amqp.subscription.id] },
    )) as [Array<{ sealed: string }>, unknown];
    expect(report.unreadable).toEqual([]);
    expect(rows[0]!.sealed.startsWith(`v2:${newKey.id}:`)).toBe(true);
    expect(JSON.parse(box.open(rows[0]!.sealed))).toEqual({ url: SHARED_AMQP_URL });
    // Back under the context's ring, which the other specs of this file open with.
    expect((await resealSecrets(ctx.runtime.db, new SecretBox(ring, [], [newKey]))).unreadable).toEqual([]);
  });
});
