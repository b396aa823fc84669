import type { Browser } from 'playwright-core';
import {
  appendEvents,
  createSubscription,
  defaultTenantId,
  createTestContext,
  sampleEvents,
  startTestWebhookWorker,
  startWebhookReceiver,
  TEST_ADMIN,
  verifyReceived,
  waitFor,
  type TestContext,
  type TestGateway,
  type WebhookReceiver,
} from '@wms/testing';
import { checkPage, launchBrowser, openPortal, signInThroughForm, type PortalPage } from './browser.js';

/**
 * A subscriber's life through the portal: its secret rotated with both secrets signing for a while, its
 * failed deliveries recovered after an outage, one event replayed, and a subscription the service disabled
 * (410 Gone) shown with its reason and enabled again.
 */
describe('admin portal: webhook lifecycles end to end', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let receiver: WebhookReceiver;
  let browser: Browser;
  let portal: PortalPage;
  let tenantId: string;

  beforeAll(async () => {
    ctx = await createTestContext('portal-webhook-life', { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
    gateway = await ctx.startGateway();
    receiver = await startWebhookReceiver();
    // One attempt a run: a delivery the receiver refuses is failed at once, ready to be recovered.
    startTestWebhookWorker(ctx, { webhook: { maxAttempts: 1, timeoutMs: 2_000 } });
    browser = await launchBrowser();
    portal = await openPortal(browser, gateway.url);
    tenantId = await defaultTenantId(ctx);
    await signInThroughForm(portal.page, TEST_ADMIN.email, TEST_ADMIN.password);
  });
  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await ctx.close();
  });

  const stockEvent = () => sampleEvents(tenantId).find((event) => event.event === 'stock.adjusted')!;
  const deliveriesOf = (id: string) => ctx.services.webhooks.listDeliveries(id, { tenantId: null });
  const auditActions = async (id: string) =>
    (await ctx.services.audit.list({ entityId: id, tenantId: null, limit: 50 })).data.map((entry) => entry.action);

  it('rotates the secret with a grace period chosen by keyboard, recovers the failed delivery signed by both secrets, and replays it', async () => {
    const { page } = portal;
    let down = true;
    receiver.on('/life', () => ({ status: down ? 503 : 200 }));
    const subscription = await createSubscription(ctx, {
      url: receiver.urlFor('/life'),
      tenantId,
      events: ['stock.adjusted'],
    });
    const [event] = await appendEvents(ctx, [stockEvent()]);
    await waitFor(async () => (await deliveriesOf(subscription.id))[0]?.status === 'failed');

    await page.goto(`/admin/webhooks/${subscription.id}`);
    const log = page.getByTestId('delivery-log');
    await log.getByTestId('delivery-status').filter({ hasText: 'failed' }).waitFor();
    await page.getByTestId('signing-state').getByText('never rotated').waitFor();

    // Rotate: the dialog's grace period is a radio group; the arrow key moves from 24 hours to 7 days.
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rotate the signing secret?' });
    await dialog.getByLabel('24 hours').focus();
    await page.keyboard.press('ArrowDown');
    expect(await dialog.getByLabel('7 days').isChecked()).toBe(true);
    await checkPage(portal, 'webhook-rotate-confirm', '[role="dialog"]');
    await dialog.getByRole('button', { name: 'Rotate secret' }).focus();
    await page.keyboard.press('Enter');

    const secretText = page.getByTestId('webhook-secret');
    await secretText.waitFor();
    const newSecret = (await secretText.textContent())!.trim();
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(subscription.secret);
    await page.getByText('This is the only time the secret is shown').waitFor();
    expect(await page.getByTestId('rotation-note').textContent()).toMatch(/signed with both the old and the new/);
    await checkPage(portal, 'webhook-secret-rotated');
    await page.getByRole('button', { name: 'I have copied the secret' }).click();
    await page.getByTestId('signing-state').getByText('two secrets sign').waitFor();
    expect(await page.content()).not.toContain(newSecret);
    const stored = await ctx.services.webhooks.get(subscription.id, { tenantId: null });
    const graceMs = new Date(stored.previousSecretExpiresAt!).getTime() - new Date(stored.secretRotatedAt!).getTime();
    expect(Math.round(graceMs / 3_600_000)).toBe(7 * 24);

    // The receiver is back: recover the window's failed delivery; it arrives signed with both secrets.
    down = false;
    await page.getByRole('button', { name: 'Recover failed deliveries' }).click();
    await page
      .getByTestId('recover-result')
      .getByText(/^1 failed delivery queued again/)
      .waitFor();
    const [, recovered] = await receiver.waitForRequests('/life', 2);
    expect(recovered!.headers['webhook-id']).toBe(event!.id);
    expect(verifyReceived(recovered!, newSecret)).toBe(true);
    expect(verifyReceived(recovered!, subscription.secret)).toBe(true);
    await log.getByTestId('delivery-status').filter({ hasText: 'succeeded' }).waitFor({ timeout: 20_000 });
    // The subscription is read again once nothing is pending: it no longer counts as failing.
    await page.getByText(/every delivery has failed since/).waitFor({ state: 'detached' });
    await page.getByRole('cell', { name: 'webhook.recovered' }).waitFor();
    await checkPage(portal, 'webhook-recovered');

    // Replay the delivered event from the log: the same webhook-id once more.
    await log.getByRole('button', { name: /^Replay event stock.adjusted/ }).click();
    const replayed = await receiver.waitForRequests('/life', 3);
    expect(replayed[2]!.headers['webhook-id']).toBe(event!.id);
    await log.getByTestId('delivery-status').filter({ hasText: 'succeeded' }).waitFor({ timeout: 20_000 });
    expect(await auditActions(subscription.id)).toEqual(
      expect.arrayContaining(['webhook.secret_rotated', 'webhook.recovered', 'webhook.replayed']),
    );
  }, 120_000);

  it('a subscription the service disabled shows why and when, and is enabled again with the enable action', async () => {
    const { page } = portal;
    receiver.on('/gone', () => ({ status: 410 }));
    const subscription = await createSubscription(ctx, { url: receiver.urlFor('/gone'), tenantId });
    await appendEvents(ctx, [stockEvent()]);
    await waitFor(async () => !(await ctx.services.webhooks.get(subscription.id, { tenantId: null })).active);

    await page.goto(`/admin/webhooks/${subscription.id}`);
    const notice = page.getByTestId('disabled-notice');
    await notice.getByText('Disabled by the service').waitFor();
    await notice.getByText(/subscriber answered 410 Gone/).waitFor();
    await notice.getByText(/^On /).waitFor();
    expect(await page.getByRole('button', { name: 'Recover failed deliveries' }).isDisabled()).toBe(true);
    await checkPage(portal, 'webhook-disabled-by-service');

    await page.getByRole('button', { name: 'Enable', exact: true }).click();
    await page.getByRole('dialog', { name: 'Enable this subscription?' }).waitFor();
    await page.getByRole('button', { name: 'Enable subscription' }).click();
    await page.getByRole('button', { name: 'Disable', exact: true }).waitFor();
    expect(await notice.count()).toBe(0);

    const enabled = await ctx.services.webhooks.get(subscription.id, { tenantId: null });
    expect(enabled).toMatchObject({ active: true, disabledReason: null, disabledAt: null });
    // The enable endpoint audits webhook.enabled (a PATCH of active would audit webhook.updated).
    expect(await auditActions(subscription.id)).toEqual(['webhook.enabled', 'webhook.disabled', 'webhook.created']);
  }, 60_000);
});
