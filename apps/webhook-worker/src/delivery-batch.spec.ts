import type { WebhookDelivery } from '@wms/webhooks';
import {
  appendEvents,
  createSubscription,
  createTenantWithWarehouse,
  createTestContext,
  sampleEvents,
  startTestWebhookWorker,
  startWebhookReceiver,
  verifyReceived,
  waitFor,
  type TestContext,
  type WebhookReceiver,
} from '@wms/testing';

const fastRetries = { backoffBaseMs: 100, maxAttempts: 3, timeoutMs: 1_000 };

describe('webhook deliveries relayed together', () => {
  let ctx: TestContext;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    ctx = await createTestContext('webhook-batches', { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await ctx.close();
  });

  const deliveriesOf = (subscriptionId: string): Promise<WebhookDelivery[]> =>
    ctx.services.webhooks.listDeliveries(subscriptionId, { tenantId: null });

  it('when one subscriber of a pass fails, each of its deliveries is retried on its own up to the last attempt, and the other subscriber gets every event', async () => {
    const worker = startTestWebhookWorker(ctx, { webhook: fastRetries });
    const { tenant } = await createTenantWithWarehouse(ctx);
    const healthy = await createSubscription(ctx, { url: receiver.urlFor('/healthy'), tenantId: tenant.id });
    const broken = await createSubscription(ctx, { url: receiver.urlFor('/broken'), tenantId: tenant.id });
    receiver.on('/broken', () => ({ status: 503 }));

    const appended = await appendEvents(ctx, [...sampleEvents(tenant.id), ...sampleEvents(tenant.id)]);
    await waitFor(
      async () =>
        (await deliveriesOf(broken.id)).filter((delivery) => delivery.status === 'failed').length === appended.length,
      30_000,
      'every broken delivery failed after its last attempt',
    );
    await waitFor(async () => (await deliveriesOf(healthy.id)).every((delivery) => delivery.status === 'succeeded'));
    await worker.close();

    // At least once: a batch taken again (its lock lost under load) may send a delivery twice.
    const healthyReceived = receiver.requestsTo('/healthy');
    expect(new Set(healthyReceived.map((request) => request.headers['webhook-id']))).toEqual(
      new Set(appended.map((event) => event.id)),
    );
    expect(healthyReceived.every((request) => verifyReceived(request, healthy.secret))).toBe(true);
    const brokenDeliveries = await deliveriesOf(broken.id);
    expect(brokenDeliveries.every((delivery) => delivery.attempts >= 3 && delivery.lastStatusCode === 503)).toBe(true);
    const perEvent = new Map<string, number>();
    for (const request of receiver.requestsTo('/broken')) {
      const id = String(request.headers['webhook-id']);
      perEvent.set(id, (perEvent.get(id) ?? 0) + 1);
    }
    expect([...perEvent.keys()].sort()).toEqual(appended.map((event) => event.id).sort());
    expect([...perEvent.values()].every((count) => count >= 3)).toBe(true);
  });
});
