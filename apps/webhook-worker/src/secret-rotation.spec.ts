import { Webhook } from 'standardwebhooks';
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
  type ReceivedRequest,
  type TestContext,
  type TestGateway,
  type WebhookReceiver,
} from '@wms/testing';

interface AuditAnswer {
  action: string;
  entityType: string;
  changes: Record<string, unknown>;
}

/** A subscription as the admin API answers it; `secret` only in create and rotate answers. */
interface SubscriptionAnswer {
  id: string;
  secret: string;
  secretRotatedAt: string | null;
  previousSecretExpiresAt: string | null;
}

/** What a receiver built on the standardwebhooks package does: true when the message verifies with `secret`. */
function verifiesWith(secret: string, request: ReceivedRequest): boolean {
  try {
    new Webhook(secret).verify(request.body, {
      'webhook-id': String(request.headers['webhook-id']),
      'webhook-timestamp': String(request.headers['webhook-timestamp']),
      'webhook-signature': String(request.headers['webhook-signature']),
    });
    return true;
  } catch {
    return false;
  }
}

describe('webhook secret rotation', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let receiver: WebhookReceiver;
  let token: string;
  let tenantId: string;

  beforeAll(async () => {
    ctx = await createTestContext('secret-rotation', { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
    gateway = await ctx.startGateway();
    receiver = await startWebhookReceiver();
    token = await loginAs(gateway.url, TEST_ADMIN.email, TEST_ADMIN.password);
    tenantId = (await createTenantWithWarehouse(ctx)).tenant.id;
    startTestWebhookWorker(ctx, { webhook: { backoffBaseMs: 100, maxAttempts: 5, timeoutMs: 5_000 } });
  });
  afterAll(async () => {
    await receiver.close();
    await ctx.close();
  });

  const rotate = (id: string, body: unknown = {}) =>
    request<SubscriptionAnswer>(gateway.url, 'POST', `/api/v1/webhooks/${id}/rotate-secret`, { token, body });
  const shipped = () => appendEvents(ctx, [sampleEvents(tenantId)[4]!]);

  it('when a secret is rotated, both secrets verify every delivery during the grace period, only the new one after', async () => {
    const path = '/rotation';
    const subscription = await createSubscription(ctx, { url: receiver.urlFor(path), tenantId });
    await shipped();
    const [before] = await receiver.waitForRequests(path, 1);

    const rotated = await rotate(subscription.id, { graceSeconds: 2 });
    await shipped();
    const [, during] = await receiver.waitForRequests(path, 2);
    await waitFor(
      () => Date.now() > Date.parse(rotated.body.previousSecretExpiresAt!),
      5_000,
      'the grace period to end',
    );
    await shipped();
    const [, , after] = await receiver.waitForRequests(path, 3);

    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(subscription.secret);
    expect(rotated.body).toMatchObject({ id: subscription.id, secretRotatedAt: expect.any(String) });
    expect(verifiesWith(subscription.secret, before!)).toBe(true);
    expect(String(during!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verifiesWith(rotated.body.secret, during!)).toBe(true);
    expect(verifiesWith(subscription.secret, during!)).toBe(true);
    expect(String(after!.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(verifiesWith(rotated.body.secret, after!)).toBe(true);
    expect(verifiesWith(subscription.secret, after!)).toBe(false);
  });

  it('when the secret is rotated while deliveries are in flight, every delivery succeeds and verifies with the old secret, later ones with both', async () => {
    const path = '/in-flight';
    const subscription = await createSubscription(ctx, { url: receiver.urlFor(path), tenantId });
    // The receiver holds the first answers back, so the rotation commits while they are in flight.
    receiver.on(path, (_request, index) => (index < 10 ? { delayMs: 300 } : {}));
    await appendEvents(
      ctx,
      Array.from({ length: 10 }, () => sampleEvents(tenantId)[6]!),
    );
    await receiver.waitForRequests(path, 5);

    const rotated = await rotate(subscription.id);
    await appendEvents(
      ctx,
      Array.from({ length: 10 }, () => sampleEvents(tenantId)[6]!),
    );
    const received = await receiver.waitForRequests(path, 20);
    await waitFor(async () => {
      const deliveries = await ctx.services.webhooks.listDeliveries(subscription.id, { tenantId: null });
      return deliveries.length === 20 && deliveries.every((delivery) => delivery.status === 'succeeded');
    });

    expect(rotated.status).toBe(200);
    expect(received.every((message) => verifiesWith(subscription.secret, message))).toBe(true);
    const signedAfter = received.slice(10);
    expect(signedAfter.every((message) => verifiesWith(rotated.body.secret, message))).toBe(true);
  });

  it('when rotated with graceSeconds 0, the old secret stops at once; the rotation is audited without the secret', async () => {
    const path = '/no-grace';
    const subscription = await createSubscription(ctx, { url: receiver.urlFor(path), tenantId });

    const rotated = await rotate(subscription.id, { graceSeconds: 0 });
    await shipped();
    const [message] = await receiver.waitForRequests(path, 1);
    const audit = await request<AuditAnswer[]>(gateway.url, 'GET', `/api/v1/audit-logs?entityId=${subscription.id}`, {
      token,
    });

    expect(rotated.body.previousSecretExpiresAt).toBeNull();
    expect(verifiesWith(rotated.body.secret, message!)).toBe(true);
    expect(verifiesWith(subscription.secret, message!)).toBe(false);
    const entry = audit.body.find((row: { action: string }) => row.action === 'webhook.secret_rotated');
    expect(entry).toMatchObject({ entityType: 'webhook_subscription', changes: { graceSeconds: 0 } });
    expect(JSON.stringify(audit.body)).not.toContain(rotated.body.secret.slice(6));
  });

  it('when the grace period is out of range or the subscription unknown, it answers 400 or 404 and keeps the secret', async () => {
    const subscription = await createSubscription(ctx, { url: receiver.urlFor('/bad'), tenantId });

    const tooLong = await rotate(subscription.id, { graceSeconds: 8 * 24 * 3600 });
    const negative = await rotate(subscription.id, { graceSeconds: -1 });
    const unknown = await rotate('6f9619ff-8b86-4d11-b42d-00c04fc964ff');
    const detail = await request<SubscriptionAnswer>(gateway.url, 'GET', `/api/v1/webhooks/${subscription.id}`, {
      token,
    });

    expect(tooLong.status).toBe(400);
    expect(negative.status).toBe(400);
    expect(unknown.status).toBe(404);
    expect(detail.body.secretRotatedAt).toBeNull();
    expect(detail.body.secret).toBeUndefined();
  });
});
