import type { DeliveryAttempt, WebhookDelivery } from '@wms/webhooks';
import {
  TEST_ADMIN,
  createSubscription,
  createTestContext,
  loginAs,
  request,
  startTestWebhookWorker,
  startWebhookReceiver,
  waitFor,
  type TestContext,
  type TestGateway,
  type WebhookReceiver,
} from '@wms/testing';

type Delivery = Omit<WebhookDelivery, 'createdAt' | 'updatedAt' | 'nextAttemptAt'> & {
  createdAt: string;
  updatedAt: string;
  nextAttemptAt: string | null;
};

describe('webhook delivery log API', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let receiver: WebhookReceiver;
  let token: string;

  beforeAll(async () => {
    ctx = await createTestContext('webhooks-delivery-log', { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
    gateway = await ctx.startGateway();
    receiver = await startWebhookReceiver();
    token = await loginAs(gateway.url, TEST_ADMIN.email, TEST_ADMIN.password);
    startTestWebhookWorker(ctx, { webhook: { maxAttempts: 2, backoffBaseMs: 50, timeoutMs: 2_000 } });
  });
  afterAll(async () => {
    await receiver.close();
    await ctx.close();
  });

  const call = <T = unknown>(method: string, path: string) =>
    request<T>(gateway.url, method, `/api/v1/webhooks${path}`, { token });

  async function settled(subscriptionId: string, count: number): Promise<Delivery[]> {
    let deliveries: Delivery[] = [];
    await waitFor(
      async () => {
        deliveries = (await call<Delivery[]>('GET', `/${subscriptionId}/deliveries`)).body;
        return deliveries.length === count && deliveries.every((delivery) => delivery.status !== 'pending');
      },
      15_000,
      `${count} settled deliveries`,
    );
    return deliveries;
  }

  it('pages the log newest first, filters it by status, and names the next page in headers', async () => {
    const subscription = await createSubscription(ctx, { url: receiver.urlFor('/log-ok') });
    const sent: string[] = [];
    for (let i = 0; i < 3; i += 1) sent.push((await call<Delivery>('POST', `/${subscription.id}/test`)).body.id);
    await settled(subscription.id, 3);

    const first = await call<Delivery[]>('GET', `/${subscription.id}/deliveries?limit=2`);
    const cursor = first.headers.get('x-next-cursor');
    const second = await call<Delivery[]>('GET', `/${subscription.id}/deliveries?limit=2&cursor=${cursor}`);
    const succeeded = await call<Delivery[]>('GET', `/${subscription.id}/deliveries?status=succeeded`);
    const failed = await call<Delivery[]>('GET', `/${subscription.id}/deliveries?status=failed`);

    expect(first.body).toHaveLength(2);
    expect(first.headers.get('link')).toContain(`/api/v1/webhooks/${subscription.id}/deliveries?limit=2&cursor=`);
    expect(second.body).toHaveLength(1);
    expect(second.headers.get('x-next-cursor')).toBeNull();
    expect([...first.body, ...second.body].map((delivery) => delivery.id)).toEqual(sent.reverse());
    expect(succeeded.body).toHaveLength(3);
    expect(succeeded.body[0]).toMatchObject({
      event: 'webhook.test',
      status: 'succeeded',
      attempts: 1,
      lastStatusCode: 200,
      lastError: null,
      nextAttemptAt: null,
      updatedAt: expect.any(String),
    });
    expect(failed.body).toEqual([]);
  });

  it("lists a delivery's attempts over every run, newest first, with the subscriber's status code and answer", async () => {
    let healthy = false;
    receiver.on('/log-flaky', () => (healthy ? { status: 204 } : { status: 503, body: 'maintenance window' }));
    const subscription = await createSubscription(ctx, { url: receiver.urlFor('/log-flaky') });
    const { id } = (await call<Delivery>('POST', `/${subscription.id}/test`)).body;
    const [failed] = await settled(subscription.id, 1);

    healthy = true;
    const redelivered = await call('POST', `/${subscription.id}/deliveries/${id}/redeliver`);
    await waitFor(
      async () => (await settled(subscription.id, 1))[0]!.status === 'succeeded',
      15_000,
      'the redelivery to succeed',
    );
    const attempts = await call<DeliveryAttempt[]>('GET', `/${subscription.id}/deliveries/${id}/attempts`);

    expect(failed).toMatchObject({ status: 'failed', attempts: 2, lastStatusCode: 503 });
    expect(redelivered.status).toBe(202);
    expect(attempts.status).toBe(200);
    expect(attempts.body.map((attempt) => [attempt.run, attempt.statusCode])).toEqual([
      [1, 204],
      [0, 503],
      [0, 503],
    ]);
    expect(attempts.body[1]).toMatchObject({ responseBody: 'maintenance window', latencyMs: expect.any(Number) });
  });

  it("answers 404 for the attempts of another subscription's delivery, and 400 for a bad log query", async () => {
    const mine = await createSubscription(ctx, { url: receiver.urlFor('/log-mine') });
    const theirs = await createSubscription(ctx, { url: receiver.urlFor('/log-theirs') });
    const { id } = (await call<Delivery>('POST', `/${theirs.id}/test`)).body;

    const crossed = await call('GET', `/${mine.id}/deliveries/${id}/attempts`);
    const badStatus = await call('GET', `/${mine.id}/deliveries?status=lost`);
    const badCursor = await call('GET', `/${mine.id}/deliveries?cursor=abc`);

    expect(crossed.status).toBe(404);
    expect(badStatus.status).toBe(400);
    expect(badCursor.status).toBe(400);
  });
});
