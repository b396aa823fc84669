import { RECOVERY_PRIORITY } from '@wms/webhooks';
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
  waitFor,
  type TestContext,
  type TestGateway,
  type WebhookReceiver,
} from '@wms/testing';

interface AuditAnswer {
  action: string;
  entityType: string;
  changes: Record<string, unknown>;
}

/** The answers of recover and replay, as an admin screen reads them. */
interface LifecycleAnswer {
  recovered: number;
  remaining: number;
  limit: number;
  since: string;
  until: string;
  replayed: boolean;
  delivery: { id: string; eventId: string };
  message: string;
}

const HOUR = 3_600_000;

describe('webhook recover and replay', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let receiver: WebhookReceiver;
  let token: string;
  let tenantId: string;
  let otherTenantId: string;

  beforeAll(async () => {
    ctx = await createTestContext('recover-replay', { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
    gateway = await ctx.startGateway();
    receiver = await startWebhookReceiver();
    token = await loginAs(gateway.url, TEST_ADMIN.email, TEST_ADMIN.password);
    tenantId = (await createTenantWithWarehouse(ctx)).tenant.id;
    otherTenantId = (await createTenantWithWarehouse(ctx)).tenant.id;
    // One attempt per run: a delivery the receiver refuses is failed at once.
    startTestWebhookWorker(ctx, { webhook: { concurrency: 2, maxAttempts: 1, timeoutMs: 5_000 } });
  });
  afterAll(async () => {
    await receiver.close();
    await ctx.close();
  });

  const post = (path: string, body: unknown) =>
    request<LifecycleAnswer>(gateway.url, 'POST', `/api/v1/webhooks${path}`, { token, body });
  const stock = (tenant = tenantId) => sampleEvents(tenant)[6]!;
  const since = () => new Date(Date.now() - HOUR).toISOString();

  async function deliveryStates(subscriptionId: string) {
    const [rows] = (await ctx.runtime.db.sequelize.query(
      `SELECT status, generation, event_id AS "eventId" FROM webhook_deliveries WHERE subscription_id = :subscriptionId`,
      { replacements: { subscriptionId } },
    )) as [Array<{ status: string; generation: number; eventId: string }>, unknown];
    return rows;
  }
  const allSettled = (subscriptionId: string, count: number, status: string, timeoutMs = 30_000) =>
    waitFor(
      async () => {
        const rows = await deliveryStates(subscriptionId);
        return rows.length === count && rows.every((row) => row.status === status);
      },
      timeoutMs,
      `${count} deliveries ${status}`,
    );

  /** A subscription on its own path whose first `failures` requests the receiver answers 500, then 200. */
  async function failingSubscription(path: string, failures: number, tenant = tenantId) {
    receiver.on(path, (_request, index) => ({ status: index < failures ? 500 : 200 }));
    return createSubscription(ctx, { url: receiver.urlFor(path), tenantId: tenant });
  }

  it('when failed deliveries are recovered, each is sent once more with its webhook-id, counted, and a repeat recovers nothing', async () => {
    const subscription = await failingSubscription('/recover', 5);
    const events = await appendEvents(
      ctx,
      Array.from({ length: 5 }, () => stock()),
    );
    await allSettled(subscription.id, 5, 'failed');

    const recovered = await post(`/${subscription.id}/recover`, { since: since() });
    const received = await receiver.waitForRequests('/recover', 10);
    await allSettled(subscription.id, 5, 'succeeded');
    const repeat = await post(`/${subscription.id}/recover`, { since: since() });
    const audit = await request<AuditAnswer[]>(gateway.url, 'GET', `/api/v1/audit-logs?entityId=${subscription.id}`, {
      token,
    });

    expect(recovered.status).toBe(202);
    expect(recovered.body).toMatchObject({ recovered: 5, remaining: 0, limit: 1000, since: expect.any(String) });
    const ids = (list: typeof received) => list.map((message) => message.headers['webhook-id']).sort();
    expect(ids(received.slice(5))).toEqual(ids(received.slice(0, 5)));
    expect(ids(received.slice(5))).toEqual(events.map((event) => event.id).sort());
    expect(repeat.body).toMatchObject({ recovered: 0, remaining: 0 });
    expect(audit.body.filter((entry) => entry.action === 'webhook.recovered')).toHaveLength(1);
  });

  it('when more failed deliveries than the cap exist, each call queues at most limit and answers how many remain', async () => {
    const subscription = await failingSubscription('/capped', 7);
    await appendEvents(
      ctx,
      Array.from({ length: 7 }, () => stock()),
    );
    await allSettled(subscription.id, 7, 'failed');

    const answers = [];
    for (let call = 0; call < 4; call++)
      answers.push((await post(`/${subscription.id}/recover`, { since: since(), limit: 3 })).body);
    await allSettled(subscription.id, 7, 'succeeded');

    expect(answers.map(({ recovered, remaining }) => [recovered, remaining])).toEqual([
      [3, 4],
      [3, 1],
      [1, 0],
      [0, 0],
    ]);
    expect(receiver.requestsTo('/capped')).toHaveLength(14);
  });

  it('when two recovers of one window run at once, every failed delivery is queued again exactly once', async () => {
    const subscription = await failingSubscription('/twice', 20);
    await appendEvents(
      ctx,
      Array.from({ length: 20 }, () => stock()),
    );
    await allSettled(subscription.id, 20, 'failed');

    const [a, b] = await Promise.all([
      post(`/${subscription.id}/recover`, { since: since() }),
      post(`/${subscription.id}/recover`, { since: since() }),
    ]);
    await allSettled(subscription.id, 20, 'succeeded');

    expect(a.body.recovered + b.body.recovered).toBe(20);
    expect((await deliveryStates(subscription.id)).every((row) => row.generation === 1)).toBe(true);
    expect(receiver.requestsTo('/twice')).toHaveLength(40);
  });

  it('when the window is too old, inverted or missing, or the subscription disabled, it answers 400 or 409 and queues nothing', async () => {
    const subscription = await failingSubscription('/windows', 0);
    const disabled = await failingSubscription('/windows-off', 0);
    await ctx.services.webhooks.update(disabled.id, { active: false }, { tenantId: null });

    const tooOld = await post(`/${subscription.id}/recover`, {
      since: new Date(Date.now() - 15 * 24 * HOUR).toISOString(),
    });
    const inverted = await post(`/${subscription.id}/recover`, {
      since: since(),
      until: new Date(Date.now() - 2 * HOUR).toISOString(),
    });
    const missing = await post(`/${subscription.id}/recover`, {});
    const tooMany = await post(`/${subscription.id}/recover`, { since: since(), limit: 1001 });
    const off = await post(`/${disabled.id}/recover`, { since: since() });

    expect([tooOld.status, inverted.status, missing.status, tooMany.status, off.status]).toEqual([
      400, 400, 400, 400, 409,
    ]);
    expect(JSON.stringify(tooOld.body)).toContain('14 days');
    expect(off.body.message).toContain('enable');
  });

  it('when an event that succeeded is replayed, it is sent again with the same webhook-id; a repeat while pending adds nothing', async () => {
    const path = '/replay';
    const subscription = await failingSubscription(path, 0);
    const [event] = await appendEvents(ctx, [stock()]);
    await allSettled(subscription.id, 1, 'succeeded');
    // The replayed attempt is held at the receiver, so the second call finds it pending.
    receiver.on(path, (_request, index) => (index === 1 ? { delayMs: 1_000 } : {}));

    const [first, second] = await Promise.all([
      post(`/${subscription.id}/replay`, { eventId: event!.id }),
      post(`/${subscription.id}/replay`, { eventId: event!.id }),
    ]);
    const [original, replayed] = await receiver.waitForRequests(path, 2);
    await allSettled(subscription.id, 1, 'succeeded');
    const later = await post(`/${subscription.id}/replay`, { eventId: event!.id });
    await receiver.waitForRequests(path, 3);
    await allSettled(subscription.id, 1, 'succeeded');

    expect([first.status, second.status]).toEqual([202, 202]);
    expect([first.body.replayed, second.body.replayed].sort()).toEqual([false, true]);
    expect(first.body.delivery.eventId).toBe(event!.id);
    expect(replayed!.headers['webhook-id']).toBe(original!.headers['webhook-id']);
    expect(JSON.parse(replayed!.body)).toEqual(JSON.parse(original!.body));
    expect(later.body.replayed).toBe(true);
    expect((await deliveryStates(subscription.id))[0]!.generation).toBe(2);
  });

  it('when an event from before the subscription existed is replayed, it is delivered; unsubscribed or foreign events are refused', async () => {
    const [old] = await appendEvents(ctx, [stock()]);
    const [foreign] = await appendEvents(ctx, [stock(otherTenantId)]);
    const [shipped] = await appendEvents(ctx, [sampleEvents(tenantId)[4]!]);
    // Relayed before the subscription exists, so it never got these events.
    await waitFor(async () => {
      const [rows] = (await ctx.runtime.db.sequelize.query(
        'SELECT count(*)::int AS n FROM events WHERE id IN (:ids) AND relayed_at IS NOT NULL',
        { replacements: { ids: [old!.id, foreign!.id, shipped!.id] } },
      )) as [Array<{ n: number }>, unknown];
      return rows[0]!.n === 3;
    });
    receiver.on('/late', () => ({}));
    const subscription = await createSubscription(ctx, {
      url: receiver.urlFor('/late'),
      tenantId,
      events: ['stock.adjusted'],
    });

    const replayed = await post(`/${subscription.id}/replay`, { eventId: old!.id });
    const [message] = await receiver.waitForRequests('/late', 1);
    const unsubscribed = await post(`/${subscription.id}/replay`, { eventId: shipped!.id });
    const otherTenant = await post(`/${subscription.id}/replay`, { eventId: foreign!.id });
    const malformed = await post(`/${subscription.id}/replay`, { eventId: 'nope' });

    expect(replayed.status).toBe(202);
    expect(message!.headers['webhook-id']).toBe(old!.id);
    expect(unsubscribed.status).toBe(409);
    expect(unsubscribed.body.message).toContain('order.shipped');
    expect(otherTenant.status).toBe(404);
    expect(malformed.status).toBe(400);
  });

  it('when thousands of deliveries are recovered, another subscription’s live event is not queued behind them', async () => {
    const backlogTenant = (await createTenantWithWarehouse(ctx)).tenant.id;
    const slow = await createSubscription(ctx, { url: receiver.urlFor('/backlog'), tenantId: backlogTenant });
    receiver.on('/backlog', (_request, index) => (index < 300 ? { status: 500 } : { delayMs: 20 }));
    await appendEvents(
      ctx,
      Array.from({ length: 300 }, () => stock(backlogTenant)),
    );
    await allSettled(slow.id, 300, 'failed', 120_000);
    await createSubscription(ctx, { url: receiver.urlFor('/live'), tenantId: otherTenantId });
    let backlogDoneWhenLiveArrived = -1;
    receiver.on('/live', () => {
      backlogDoneWhenLiveArrived = receiver.requestsTo('/backlog').length - 300;
      return {};
    });

    const recovered = await post(`/${slow.id}/recover`, { since: since() });
    await receiver.waitForRequests('/backlog', 310, 60_000);
    await appendEvents(ctx, [stock(otherTenantId)]);
    await receiver.waitForRequests('/live', 1);
    await allSettled(slow.id, 300, 'succeeded', 120_000);

    expect(recovered.body.recovered).toBe(300);
    expect(backlogDoneWhenLiveArrived).toBeGreaterThanOrEqual(10);
    expect(backlogDoneWhenLiveArrived).toBeLessThan(150);
    const [priority] = (await ctx.runtime.db.sequelize.query(
      'SELECT DISTINCT priority FROM webhook_deliveries WHERE subscription_id = :id',
      { replacements: { id: slow.id } },
    )) as [Array<{ priority: number }>, unknown];
    expect(priority).toEqual([{ priority: RECOVERY_PRIORITY }]);
  }, 240_000);
});
