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
  startTestMaintenance,
} from '@wms/testing';

interface AuditAnswer {
  action: string;
  entityType: string;
  changes: Record<string, unknown>;
}

describe('failing webhook subscriptions', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let receiver: WebhookReceiver;
  let token: string;

  beforeAll(async () => {
    ctx = await createTestContext('failing-subscriptions', {
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      WEBHOOK_DISABLE_AFTER_HOURS: '120',
    });
    gateway = await ctx.startGateway();
    receiver = await startWebhookReceiver();
    token = await loginAs(gateway.url, TEST_ADMIN.email, TEST_ADMIN.password);
    startTestWebhookWorker(ctx, { webhook: { maxAttempts: 1 } });
    await startTestMaintenance(ctx, { maintenance: { webhookDisableSweepMs: 100 } });
  });
  afterAll(async () => {
    await receiver.close();
    await ctx.close();
  });

  const detail = async (id: string) => (await request(gateway.url, 'GET', `/api/v1/webhooks/${id}`, { token })).body;
  const stock = (tenantId: string) => sampleEvents(tenantId)[6]!;
  /** Moves the first failure back in time: five days of failures cannot be waited for in a test. */
  const failingFor = (id: string, hours: number) =>
    ctx.runtime.db.sequelize.query(
      `UPDATE webhook_subscriptions SET failing_since = now() - make_interval(hours => :hours) WHERE id = :id`,
      { replacements: { id, hours } },
    );

  it('when deliveries fail, failingSince is set by the first failure and cleared by the next success', async () => {
    const { tenant } = await createTenantWithWarehouse(ctx);
    receiver.on('/flaky', (_request, index) => ({ status: index < 2 ? 503 : 200 }));
    const subscription = await createSubscription(ctx, { url: receiver.urlFor('/flaky'), tenantId: tenant.id });

    await appendEvents(ctx, [stock(tenant.id)]);
    await waitFor(async () => (await detail(subscription.id)).failingSince !== null);
    const first = (await detail(subscription.id)).failingSince;
    await appendEvents(ctx, [stock(tenant.id)]);
    await receiver.waitForRequests('/flaky', 2);
    await waitFor(async () => {
      const deliveries = await ctx.services.webhooks.listDeliveries(subscription.id, { tenantId: null });
      return deliveries.length === 2 && deliveries.every((delivery) => delivery.status === 'failed');
    });
    const second = (await detail(subscription.id)).failingSince;
    await appendEvents(ctx, [stock(tenant.id)]);
    await waitFor(async () => (await detail(subscription.id)).failingSince === null);

    expect(second).toBe(first);
    expect((await detail(subscription.id)).active).toBe(true);
  });

  it('when every delivery has failed for WEBHOOK_DISABLE_AFTER_HOURS, it is disabled with reason and time, audited, and announced to the subscriptions that asked', async () => {
    const { tenant } = await createTenantWithWarehouse(ctx);
    const { tenant: otherTenant } = await createTenantWithWarehouse(ctx);
    receiver.on('/down', () => ({ status: 500 }));
    const failing = await createSubscription(ctx, { url: receiver.urlFor('/down'), tenantId: tenant.id });
    const watcher = await createSubscription(ctx, {
      url: receiver.urlFor('/watcher'),
      tenantId: tenant.id,
      events: ['webhook.disabled'],
    });
    const everything = await createSubscription(ctx, { url: receiver.urlFor('/everything'), tenantId: tenant.id });
    const foreign = await createSubscription(ctx, {
      url: receiver.urlFor('/foreign'),
      tenantId: otherTenant.id,
      events: ['webhook.disabled'],
    });
    await appendEvents(ctx, [stock(tenant.id)]);
    await waitFor(async () => (await detail(failing.id)).failingSince !== null);

    await failingFor(failing.id, 119);
    await appendEvents(ctx, [stock(tenant.id)]);
    await receiver.waitForRequests('/everything', 2);
    const stillActive = await detail(failing.id);
    await failingFor(failing.id, 121);
    await waitFor(async () => !(await detail(failing.id)).active);
    const [notice] = await receiver.waitForRequests('/watcher', 1);
    const disabled = await detail(failing.id);
    const audit = await request<AuditAnswer[]>(gateway.url, 'GET', `/api/v1/audit-logs?entityId=${failing.id}`, {
      token,
    });
    const feed = await ctx.services.events.listForTenant(tenant.id, null, 500);

    expect(stillActive.active).toBe(true);
    expect(disabled).toMatchObject({
      active: false,
      disabledReason: expect.stringContaining('failed for 120 hours'),
      disabledAt: expect.any(String),
    });
    const body = JSON.parse(notice!.body);
    expect(body).toMatchObject({
      event: 'webhook.disabled',
      data: { subscriptionId: failing.id, url: failing.url, reason: disabled.disabledReason, tenantId: tenant.id },
    });
    expect(audit.body.map((entry) => entry.action)).toContain('webhook.disabled');
    expect(
      receiver.requestsTo('/everything').some((message) => JSON.parse(message.body).event === 'webhook.disabled'),
    ).toBe(false);
    expect(receiver.requestsTo('/foreign')).toHaveLength(0);
    expect(feed.events.some((event) => event.event === 'webhook.disabled')).toBe(false);
    expect(watcher.id).not.toBe(everything.id);
    expect(foreign.tenantId).toBe(otherTenant.id);
  });

  it('when a receiver answers 410 Gone, the subscription is disabled once, audited and announced, however many deliveries met the 410', async () => {
    const { tenant } = await createTenantWithWarehouse(ctx);
    receiver.on('/gone', () => ({ status: 410 }));
    const gone = await createSubscription(ctx, { url: receiver.urlFor('/gone'), tenantId: tenant.id });
    await createSubscription(ctx, {
      url: receiver.urlFor('/gone-watcher'),
      tenantId: tenant.id,
      events: ['webhook.disabled'],
    });

    await appendEvents(ctx, sampleEvents(tenant.id));
    const [notice] = await receiver.waitForRequests('/gone-watcher', 1);
    await waitFor(async () =>
      (await ctx.services.webhooks.listDeliveries(gone.id, { tenantId: null })).every(
        (delivery) => delivery.status === 'failed',
      ),
    );
    const disabled = await detail(gone.id);
    const audit = await request<AuditAnswer[]>(gateway.url, 'GET', `/api/v1/audit-logs?entityId=${gone.id}`, {
      token,
    });
    const [events] = (await ctx.runtime.db.sequelize.query(
      `SELECT count(*)::int AS n FROM events WHERE event = 'webhook.disabled' AND data->>'subscriptionId' = :id`,
      { replacements: { id: gone.id } },
    )) as [Array<{ n: number }>, unknown];

    expect(disabled).toMatchObject({ active: false, disabledReason: expect.stringContaining('410 Gone') });
    expect(JSON.parse(notice!.body)).toMatchObject({
      event: 'webhook.disabled',
      data: { subscriptionId: gone.id, reason: disabled.disabledReason, tenantId: tenant.id },
    });
    const disables = audit.body.filter((entry) => entry.action === 'webhook.disabled');
    expect(disables).toHaveLength(1);
    expect(disables[0]!.changes).toMatchObject({ active: { from: true, to: false }, reason: disabled.disabledReason });
    expect(events[0]!.n).toBe(1);
  });

  it('when two workers sweep at once, a failing subscription is disabled, audited and announced once', async () => {
    const { tenant } = await createTenantWithWarehouse(ctx);
    receiver.on('/once', () => ({ status: 500 }));
    const failing = await createSubscription(ctx, { url: receiver.urlFor('/once'), tenantId: tenant.id });
    await createSubscription(ctx, {
      url: receiver.urlFor('/once-watcher'),
      tenantId: tenant.id,
      events: ['webhook.disabled'],
    });
    await appendEvents(ctx, [stock(tenant.id)]);
    await waitFor(async () => (await detail(failing.id)).failingSince !== null);
    await failingFor(failing.id, 500);

    const counts = await Promise.all([
      ctx.services.webhookLifecycle.disableFailing(120),
      gateway.services.webhookLifecycle.disableFailing(120),
    ]);
    await receiver.waitForRequests('/once-watcher', 1);
    const audit = await request<AuditAnswer[]>(gateway.url, 'GET', `/api/v1/audit-logs?entityId=${failing.id}`, {
      token,
    });
    const [events] = (await ctx.runtime.db.sequelize.query(
      `SELECT count(*)::int AS n FROM events WHERE event = 'webhook.disabled' AND data->>'subscriptionId' = :id`,
      { replacements: { id: failing.id } },
    )) as [Array<{ n: number }>, unknown];

    expect(counts[0]! + counts[1]!).toBeLessThanOrEqual(1);
    expect(audit.body.filter((entry) => entry.action === 'webhook.disabled')).toHaveLength(1);
    expect(events[0]!.n).toBe(1);
  });

  it('when a disabled subscription is enabled, deliveries flow again; the enable is audited and a repeat changes nothing', async () => {
    const { tenant } = await createTenantWithWarehouse(ctx);
    let down = true;
    receiver.on('/back', () => ({ status: down ? 500 : 200 }));
    const subscription = await createSubscription(ctx, { url: receiver.urlFor('/back'), tenantId: tenant.id });
    await appendEvents(ctx, [stock(tenant.id)]);
    await waitFor(async () => (await detail(subscription.id)).failingSince !== null);
    await failingFor(subscription.id, 200);
    await waitFor(async () => !(await detail(subscription.id)).active);
    down = false;

    const enabled = await request(gateway.url, 'POST', `/api/v1/webhooks/${subscription.id}/enable`, { token });
    const again = await request(gateway.url, 'POST', `/api/v1/webhooks/${subscription.id}/enable`, { token });
    await appendEvents(ctx, [stock(tenant.id)]);
    const received = await receiver.waitForRequests('/back', 2);
    const audit = await request<AuditAnswer[]>(gateway.url, 'GET', `/api/v1/audit-logs?entityId=${subscription.id}`, {
      token,
    });

    expect(enabled.status).toBe(200);
    expect(enabled.body).toMatchObject({ active: true, disabledReason: null, disabledAt: null, failingSince: null });
    expect(again.body.updatedAt).toBe(enabled.body.updatedAt);
    expect(received).toHaveLength(2);
    const enables = audit.body.filter((entry) => entry.action === 'webhook.enabled');
    expect(enables).toHaveLength(1);
    expect(enables[0]!.changes.disabledReason).toContain('failed for 120 hours');
  });

  it('when a subscription names webhook.disabled, it is accepted; an unknown event name is refused', async () => {
    const ok = await request(gateway.url, 'POST', '/api/v1/webhooks', {
      token,
      body: { url: receiver.urlFor('/names'), events: ['webhook.disabled', 'order.shipped'] },
    });
    const bad = await request(gateway.url, 'POST', '/api/v1/webhooks', {
      token,
      body: { url: receiver.urlFor('/names'), events: ['webhook.test'] },
    });

    expect(ok.status).toBe(201);
    expect(bad.status).toBe(400);
  });
});
