import type { Browser } from 'playwright-core';
import { eventTypeCatalogue } from '@wms/webhooks';
import {
  createSubscription,
  createTenantWithWarehouse,
  createTestContext,
  createUser,
  defaultTenantId,
  startTestWebhookWorker,
  startWebhookReceiver,
  TEST_ADMIN,
  verifyReceived,
  type TestContext,
  type TestGateway,
  type WebhookReceiver,
} from '@wms/testing';
import { checkPage, launchBrowser, openPortal, signInThroughForm, type PortalPage } from './browser.js';

/** An integrator's webhook set up through the portal: subscribe, test, read the log, replay, edit, delete. */
describe('admin portal: webhooks end to end', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let receiver: WebhookReceiver;
  let browser: Browser;
  let portal: PortalPage;

  beforeAll(async () => {
    ctx = await createTestContext('portal-webhooks', { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
    gateway = await ctx.startGateway();
    receiver = await startWebhookReceiver();
    startTestWebhookWorker(ctx, { webhook: { backoffBaseMs: 200, maxAttempts: 3, timeoutMs: 2_000 } });
    browser = await launchBrowser();
    portal = await openPortal(browser, gateway.url);
  });
  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await ctx.close();
  });

  it('creates a subscription shown with its secret once, sends a test that succeeds, replays it, edits and deletes it', async () => {
    const { page } = portal;
    await signInThroughForm(page, TEST_ADMIN.email, TEST_ADMIN.password);
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
    await page.getByText('No subscriptions yet.').waitFor();
    await checkPage(portal, 'webhooks-empty');

    await page.getByRole('link', { name: 'Create subscription' }).click();
    await page.getByLabel(/^URL/).fill(receiver.urlFor('/erp-hooks'));
    // The picker is the gateway's event catalogue, each event with its meaning.
    const disabledType = eventTypeCatalogue().find((type) => type.name === 'webhook.disabled')!;
    await page.getByLabel('webhook.disabled').waitFor();
    await page.getByText(disabledType.description, { exact: true }).waitFor();
    await page.getByLabel('order.shipped').check();
    await page.getByLabel('stock.adjusted').check();
    await page.getByLabel('Description').fill('ERP order and stock updates');
    await checkPage(portal, 'webhook-create');
    await page.getByRole('button', { name: 'Create subscription' }).click();

    const secretText = page.getByTestId('webhook-secret');
    await secretText.waitFor();
    await page.getByText('This is the only time the secret is shown').waitFor();
    const secret = (await secretText.textContent())!.trim();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    await checkPage(portal, 'webhook-created');

    await page.getByRole('button', { name: 'I have copied the secret' }).click();
    await page.getByRole('heading', { name: 'Webhook subscription', level: 1 }).waitFor();
    expect(await page.content()).not.toContain(secret);
    await page.getByText('No deliveries yet.').waitFor();

    await page.getByRole('button', { name: 'Send test event' }).click();
    const log = page.getByTestId('delivery-log');
    // The log reads itself again while a delivery is pending; the outcome appears without a click.
    await log.getByTestId('delivery-status').filter({ hasText: 'succeeded' }).waitFor({ timeout: 20_000 });
    const [received] = await receiver.waitForRequests('/erp-hooks', 1);
    expect(verifyReceived(received!, secret)).toBe(true);
    expect(JSON.parse(received!.body)).toMatchObject({ event: 'webhook.test' });
    await log.getByText('200', { exact: true }).first().waitFor();
    await checkPage(portal, 'webhook-detail');

    await log.getByRole('button', { name: /^Attempts of delivery/ }).click();
    const attempts = page.getByRole('dialog', { name: 'Attempts of webhook.test' });
    await attempts.getByRole('cell', { name: '200' }).waitFor();
    await checkPage(portal, 'webhook-attempts', '[role="dialog"]');
    await page.keyboard.press('Escape');
    await attempts.waitFor({ state: 'hidden' });

    await log.getByRole('button', { name: /^Replay event webhook.test/ }).click();
    await receiver.waitForRequests('/erp-hooks', 2);
    await log.getByTestId('delivery-status').filter({ hasText: 'succeeded' }).waitFor({ timeout: 20_000 });
    expect(receiver.requestsTo('/erp-hooks')[1]!.headers['webhook-id']).toBe(received!.headers['webhook-id']);

    await page.getByRole('link', { name: 'Edit' }).click();
    await page.getByLabel('Description').fill('ERP order updates only');
    await page.getByLabel('stock.adjusted').uncheck();
    await checkPage(portal, 'webhook-edit');
    await page.getByRole('button', { name: 'Save changes' }).click();
    // The edit form's own text area holds the new text too: wait for the detail page first.
    await page.getByRole('heading', { name: 'Webhook subscription', exact: true, level: 1 }).waitFor();
    await page.getByRole('definition').filter({ hasText: 'ERP order updates only' }).waitFor();
    // The change is in the subscription's audit trail, with what it was and what it became.
    await page.getByRole('cell', { name: 'webhook.updated' }).waitFor();
    await page.getByTestId('audit-table').getByText('ERP order updates only').waitFor();
    const [subscription] = await ctx.services.webhooks.list({ tenantId: null });
    expect(subscription).toMatchObject({ events: ['order.shipped'], description: 'ERP order updates only' });

    await page.getByRole('link', { name: 'Webhooks' }).click();
    const url = receiver.urlFor('/erp-hooks');
    await page.getByRole('link', { name: url }).waitFor();
    await checkPage(portal, 'webhooks');
    await page.getByRole('link', { name: url }).click();

    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog', { name: 'Delete this subscription?' }).waitFor();
    await checkPage(portal, 'webhook-delete-confirm', '[role="dialog"]');
    await page.getByRole('button', { name: 'Delete subscription' }).click();
    await page.getByText('No subscriptions yet.').waitFor();
    expect(await ctx.services.webhooks.list({ tenantId: null })).toEqual([]);
  }, 120_000);

  it("a tenant-bound reader sees its tenant's subscriptions only, and no button that would change one", async () => {
    const { tenant: other } = await createTenantWithWarehouse(ctx);
    const own = await createSubscription(ctx, {
      url: receiver.urlFor('/default-tenant'),
      tenantId: await defaultTenantId(ctx),
    });
    await createSubscription(ctx, { url: receiver.urlFor('/other-tenant'), tenantId: other.id });
    const reader = await createUser(ctx, {
      role: 'viewer',
      tenantId: own.tenantId,
      adminModules: ['webhooks'],
    });
    const viewer = await openPortal(browser, gateway.url);
    const { page } = viewer;

    await signInThroughForm(page, reader.user.email, reader.password);
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('link', { name: own.url }).click();
    await page.getByRole('heading', { name: 'Webhook subscription', level: 1 }).waitFor();
    await page.getByTestId('delivery-log').waitFor();

    expect(await page.getByRole('button', { name: /Send test event|Disable|Delete/ }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Edit' }).count()).toBe(0);
    await page.goBack();
    await page.getByRole('link', { name: own.url }).waitFor();
    expect(await page.getByRole('link', { name: receiver.urlFor('/other-tenant') }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Create subscription' }).count()).toBe(0);
    await viewer.context.close();
  }, 60_000);
});
