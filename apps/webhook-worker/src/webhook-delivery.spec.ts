import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { businessEventNames } from '@wms/events';
import type { WebhookDelivery } from '@wms/webhooks';
import {
  TEST_ADMIN,
  appendEvents,
  createSubscription,
  createTenantWithWarehouse,
  createTestContext,
  loginAs,
  request,
  sampleEvents,
  startTestWebhookWorker,
  startWebhookReceiver,
  verifyReceived,
  waitFor,
  type TestContext,
  type WebhookReceiver,
} from '@wms/testing';

const fastRetries = { backoffBaseMs: 200, maxAttempts: 4, timeoutMs: 1_000 };

describe('webhook delivery', () => {
  let ctx: TestContext;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    ctx = await createTestContext('webhook-delivery', { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await ctx.close();
  });

  const deliveriesOf = (subscriptionId: string): Promise<WebhookDelivery[]> =>
    ctx.services.webhooks.listDeliveries(subscriptionId, { tenantId: null });

  async function attemptsOf(deliveryId: string) {
    const [rows] = (await ctx.runtime.db.sequelize.query(
      `SELECT status_code AS "statusCode", latency_ms AS "latencyMs", error, response_body AS "responseBody"
         FROM webhook_delivery_attempts WHERE delivery_id = :deliveryId ORDER BY id`,
      { replacements: { deliveryId } },
    )) as [
      Array<{ statusCode: number | null; latencyMs: number; error: string | null; responseBody: string | null }>,
      unknown,
    ];
    return rows;
  }

  it('when each business event occurs, the subscriber gets the event body with a signature it can verify', async () => {
    const worker = startTestWebhookWorker(ctx, { webhook: fastRetries });
    const { tenant } = await createTenantWithWarehouse(ctx);
    const subscription = await createSubscription(ctx, { url: receiver.urlFor('/all-events'), tenantId: tenant.id });
    receiver.on('/all-events', () => ({ status: 200, body: 'x'.repeat(5_000) }));
    const inputs = sampleEvents(tenant.id);
    await expect(
      ctx.runtime.db.sequelize.transaction(async (transaction) => {
        await ctx.services.events.append(transaction, {
          tenantId: tenant.id,
          event: 'order.cancelled',
          data: { orderNo: 'SO-ROLLED-BACK', referenceNo: null, previousStatus: 'open' },
        });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');

    const appended = await appendEvents(ctx, inputs);
    const received = await receiver.waitForRequests('/all-events', inputs.length);
    await waitFor(async () =>
      (await deliveriesOf(subscription.id)).every((delivery) => delivery.status === 'succeeded'),
    );
    await worker.close();

    expect(received.map((request) => JSON.parse(request.body).event).sort()).toEqual([...businessEventNames].sort());
    for (const request of received) {
      const body = JSON.parse(request.body);
      const event = appended.find((candidate) => candidate.id === body.id)!;
      const input = inputs.find((candidate) => candidate.event === body.event)!;
      expect(verifyReceived(request, subscription.secret)).toBe(true);
      expect(request.headers['webhook-id']).toBe(event.id);
      expect(request.headers['content-type']).toBe('application/json');
      expect(Object.keys(body)).toEqual(['id', 'event', 'timestamp', 'sequence', 'data']);
      expect(body).toEqual({
        id: event.id,
        event: input.event,
        timestamp: event.occurredAt.toISOString(),
        sequence: event.sequence,
        data: { ...input.data, tenantId: tenant.id },
      });
    }
    expect(receiver.requests.some((request) => request.body.includes('SO-ROLLED-BACK'))).toBe(false);
    const [delivery] = await deliveriesOf(subscription.id);
    expect(delivery).toMatchObject({
      status: 'succeeded',
      attempts: 1,
      lastStatusCode: 200,
      lastError: null,
      nextAttemptAt: null,
    });
    const [attempt] = await attemptsOf(delivery!.id);
    expect(attempt!.responseBody).toHaveLength(1024);
    expect(attempt!.latencyMs).toBeGreaterThan(0);
  });

  it('when the subscriber answers 500 and then times out, the delivery is retried with growing gaps and the same webhook-id until it succeeds', async () => {
    const worker = startTestWebhookWorker(ctx, { webhook: { ...fastRetries, maxAttempts: 5 } });
    const { tenant } = await createTenantWithWarehouse(ctx);
    const subscription = await createSubscription(ctx, {
      url: receiver.urlFor('/flaky'),
      tenantId: tenant.id,
      events: ['order.shipped'],
    });
    receiver.on('/flaky', (_request, index) =>
      index < 3 ? { status: 500 } : index === 3 ? { hang: true } : { status: 204 },
    );

    await appendEvents(ctx, sampleEvents(tenant.id));
    const received = await receiver.waitForRequests('/flaky', 5);
    await waitFor(async () => (await deliveriesOf(subscription.id))[0]?.status === 'succeeded');
    await worker.close();

    expect(new Set(received.map((request) => request.headers['webhook-id'])).size).toBe(1);
    expect(received.every((request) => verifyReceived(request, subscription.secret))).toBe(true);
    const gaps = received.slice(1, 4).map((request, index) => request.receivedAt - received[index]!.receivedAt);
    expect(gaps[1]!).toBeGreaterThan(gaps[0]!);
    expect(gaps[2]!).toBeGreaterThan(gaps[1]!);
    const [delivery] = await deliveriesOf(subscription.id);
    expect(delivery).toMatchObject({ status: 'succeeded', attempts: 5, lastStatusCode: 204 });
    const attempts = await attemptsOf(delivery!.id);
    expect(attempts.map((attempt) => attempt.statusCode)).toEqual([500, 500, 500, null, 204]);
    expect(attempts[3]!.error).toBe('timeout');
  });

  it('when every attempt fails, the delivery is failed after the last one, and a redelivery through the API then succeeds with the same webhook-id', async () => {
    const worker = startTestWebhookWorker(ctx, { webhook: fastRetries });
    const gateway = await ctx.startGateway();
    const token = await loginAs(gateway.url, TEST_ADMIN.email, TEST_ADMIN.password);
    const { tenant } = await createTenantWithWarehouse(ctx);
    const subscription = await createSubscription(ctx, {
      url: receiver.urlFor('/down'),
      tenantId: tenant.id,
      events: ['asn.completed'],
    });
    let up = false;
    receiver.on('/down', () => ({ status: up ? 200 : 503 }));

    await appendEvents(ctx, sampleEvents(tenant.id));
    await waitFor(async () => (await deliveriesOf(subscription.id))[0]?.status === 'failed');
    const [failed] = await deliveriesOf(subscription.id);
    up = true;
    const answer = await request(
      gateway.url,
      'POST',
      `/api/v1/webhooks/${subscription.id}/deliveries/${failed!.id}/redeliver`,
      { token },
    );
    const received = await receiver.waitForRequests('/down', 5);
    await waitFor(async () => (await deliveriesOf(subscription.id))[0]?.status === 'succeeded');
    await worker.close();

    expect(failed).toMatchObject({
      status: 'failed',
      attempts: 4,
      lastStatusCode: 503,
      lastError: 'HTTP 503',
      nextAttemptAt: null,
    });
    expect(answer.status).toBe(202);
    expect(answer.body).toMatchObject({ id: failed!.id, status: 'pending' });
    expect(new Set(received.map((request) => request.headers['webhook-id']))).toEqual(new Set([failed!.eventId]));
    expect((await deliveriesOf(subscription.id))[0]).toMatchObject({
      status: 'succeeded',
      attempts: 5,
      lastStatusCode: 200,
    });
  });

  it('when the subscriber answers 410, the delivery is not retried and the subscription is disabled', async () => {
    const worker = startTestWebhookWorker(ctx, { webhook: fastRetries });
    const { tenant } = await createTenantWithWarehouse(ctx);
    const subscription = await createSubscription(ctx, {
      url: receiver.urlFor('/gone'),
      tenantId: tenant.id,
      events: ['order.cancelled'],
    });
    receiver.on('/gone', () => ({ status: 410 }));

    await appendEvents(ctx, sampleEvents(tenant.id));
    await waitFor(async () => (await deliveriesOf(subscription.id))[0]?.status === 'failed');
    await appendEvents(ctx, sampleEvents(tenant.id));
    await worker.relay!.runOnce();
    await worker.close();

    expect(receiver.requestsTo('/gone')).toHaveLength(1);
    expect(await deliveriesOf(subscription.id)).toEqual([
      expect.objectContaining({ status: 'failed', attempts: 1, lastStatusCode: 410 }),
    ]);
    const stored = await ctx.services.webhooks.get(subscription.id, { tenantId: null });
    expect(stored.active).toBe(false);
    expect(stored.disabledReason).toContain('410');
  });

  it('when one subscriber is slow, another subscriber of the same event is delivered without waiting for it', async () => {
    const worker = startTestWebhookWorker(ctx, { webhook: { ...fastRetries, timeoutMs: 5_000 } });
    const { tenant } = await createTenantWithWarehouse(ctx);
    const slow = await createSubscription(ctx, { url: receiver.urlFor('/slow'), tenantId: tenant.id });
    const fast = await createSubscription(ctx, { url: receiver.urlFor('/fast'), tenantId: tenant.id });
    receiver.on('/slow', () => ({ hang: true }));

    const events = sampleEvents(tenant.id);
    await appendEvents(ctx, events);
    await receiver.waitForRequests('/slow', events.length);
    await receiver.waitForRequests('/fast', events.length);
    await waitFor(async () => (await deliveriesOf(fast.id)).every((delivery) => delivery.status === 'succeeded'));
    const slowDeliveries = await deliveriesOf(slow.id);
    await worker.close(true);

    // Every slow attempt is still in flight (none has even been recorded) while the fast subscriber is done.
    expect(slowDeliveries.every((delivery) => delivery.status === 'pending' && delivery.attempts === 0)).toBe(true);
  });

  it('when a subscriber hangs, once it is known to be slow it holds at most its share of the worker and another subscriber is served', async () => {
    // A subscriber that never answers, counting how many of our requests it holds open at once.
    let open = 0;
    let arrived = 0;
    let timedOut = 0;
    let watching = false;
    let mostOpenWhileWatched = 0;
    const hanging = createServer((_req, res) => {
      open += 1;
      arrived += 1;
      if (watching) mostOpenWhileWatched = Math.max(mostOpenWhileWatched, open);
      res.on('close', () => {
        open -= 1;
        timedOut += 1;
      });
    });
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    try {
      const worker = startTestWebhookWorker(ctx, {
        webhook: {
          backoffBaseMs: 100,
          maxAttempts: 10,
          timeoutMs: 600,
          concurrency: 6,
          concurrencyPerSlowSubscription: 1,
        },
      });
      const { tenant } = await createTenantWithWarehouse(ctx);
      await createSubscription(ctx, {
        url: `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/hook`,
        tenantId: tenant.id,
      });
      const fast = await createSubscription(ctx, { url: receiver.urlFor('/served'), tenantId: tenant.id });

      await appendEvents(ctx, [...sampleEvents(tenant.id), ...sampleEvents(tenant.id)]);
      // The first attempts run uncapped until one times out; within one more timeout period every attempt
      // that started before the worker learned has ended, leaving at most the slot's own attempt open.
      await waitFor(() => timedOut > 0, 10_000, 'a first timeout');
      await waitFor(() => open <= 1, 10_000, 'the attempts started before the worker learned to end');
      watching = true;
      await waitFor(
        async () => (await deliveriesOf(fast.id)).every((delivery) => delivery.status === 'succeeded'),
        10_000,
        'the other subscriber served',
      );
      // Watched over its next attempts: the slow subscriber keeps being retried while the window lasts.
      const watchedFrom = arrived;
      await waitFor(() => arrived >= watchedFrom + 2, 10_000, 'two more attempts at the slow subscriber');
      watching = false;
      await worker.close(true);

      // One slot for the slow subscriber, plus at most one attempt whose close the receiver has not seen yet.
      expect(mostOpenWhileWatched).toBeGreaterThan(0);
      expect(mostOpenWhileWatched).toBeLessThanOrEqual(2);
      expect(receiver.requestsTo('/served')).toHaveLength(2 * sampleEvents(tenant.id).length);
    } finally {
      hanging.closeAllConnections();
      await new Promise((resolve) => hanging.close(resolve));
    }
  });

  it('when the worker is killed mid-delivery, the delivery is completed after a restart (at least once)', async () => {
    const first = startTestWebhookWorker(ctx, { webhook: { ...fastRetries, timeoutMs: 10_000 } });
    const { tenant } = await createTenantWithWarehouse(ctx);
    const subscription = await createSubscription(ctx, {
      url: receiver.urlFor('/crash'),
      tenantId: tenant.id,
      events: ['stock.adjusted'],
    });
    receiver.on('/crash', (_request, index) => (index === 0 ? { hang: true } : { status: 200 }));
    await appendEvents(ctx, sampleEvents(tenant.id));
    await receiver.waitForRequests('/crash', 1);

    await first.kill();
    const second = startTestWebhookWorker(ctx, { webhook: fastRetries });
    const received = await receiver.waitForRequests('/crash', 2, 20_000);
    await waitFor(async () => (await deliveriesOf(subscription.id))[0]?.status === 'succeeded');
    await second.close();

    expect(received[1]!.headers['webhook-id']).toBe(received[0]!.headers['webhook-id']);
    expect(verifyReceived(received[1]!, subscription.secret)).toBe(true);
  });

  it('when a test is requested, webhook.test is sent to that subscription whatever its event filter', async () => {
    const worker = startTestWebhookWorker(ctx, { webhook: fastRetries });
    const gateway = await ctx.startGateway();
    const token = await loginAs(gateway.url, TEST_ADMIN.email, TEST_ADMIN.password);
    const subscription = await createSubscription(ctx, { url: receiver.urlFor('/ping'), events: ['order.shipped'] });

    const answer = await request(gateway.url, 'POST', `/api/v1/webhooks/${subscription.id}/test`, { token });
    const [received] = await receiver.waitForRequests('/ping', 1);
    await worker.close();

    expect(answer.status).toBe(202);
    expect(verifyReceived(received!, subscription.secret)).toBe(true);
    expect(JSON.parse(received!.body)).toMatchObject({
      event: 'webhook.test',
      data: { subscriptionId: subscription.id, tenantId: null },
    });
  });

  it('when private URLs are not allowed at delivery, a subscriber address or name that leads to loopback is refused and never contacted', async () => {
    const worker = startTestWebhookWorker(ctx, { webhook: { ...fastRetries, allowPrivateUrls: false } });
    const { tenant } = await createTenantWithWarehouse(ctx);
    const literal = await createSubscription(ctx, {
      url: receiver.urlFor('/ssrf-literal'),
      tenantId: tenant.id,
      events: ['asn.completed'],
    });
    const byName = await createSubscription(ctx, {
      url: receiver.urlFor('/ssrf-name').replace('127.0.0.1', 'localhost'),
      tenantId: tenant.id,
      events: ['asn.completed'],
    });

    await appendEvents(ctx, sampleEvents(tenant.id));
    await waitFor(
      async () =>
        (await deliveriesOf(literal.id))[0]?.status === 'failed' &&
        (await deliveriesOf(byName.id))[0]?.status === 'failed',
    );
    await worker.close();

    expect(receiver.requestsTo('/ssrf-literal')).toHaveLength(0);
    expect(receiver.requestsTo('/ssrf-name')).toHaveLength(0);
    expect((await deliveriesOf(literal.id))[0]!.lastError).toBe('address 127.0.0.1 is not allowed');
    expect((await deliveriesOf(byName.id))[0]!.lastError).toContain('EBLOCKEDADDRESS');
  });
});
