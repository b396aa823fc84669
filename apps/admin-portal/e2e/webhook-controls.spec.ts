import type { Browser } from 'playwright-core';
import type { AppendEventInput } from '@wms/events';
import {
  appendEvents,
  createSubscription,
  createTestContext,
  defaultTenantId,
  startTestWebhookWorker,
  startWebhookReceiver,
  TEST_ADMIN,
  type TestContext,
  type TestGateway,
  type WebhookReceiver,
} from '@wms/testing';
import { checkPage, launchBrowser, openPortal, signInThroughForm, type PortalPage } from './browser.js';

/** A subscriber's controls set in the portal: a filter tried on recent events, a rate, ordered delivery. */
describe('admin portal: webhook subscriber controls', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let browser: Browser;
  let portal: PortalPage;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    ctx = await createTestContext('portal-webhook-controls', { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
    gateway = await ctx.startGateway();
    receiver = await startWebhookReceiver();
    browser = await launchBrowser();
    portal = await openPortal(browser, gateway.url);
  });
  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await ctx.close();
  });

  it('tries a filter on recent events ("would have matched 4 of the latest 10"), then saves it with a rate and ordered delivery', async () => {
    const tenantId = await defaultTenantId(ctx);
    const adjusted = (index: number): AppendEventInput => ({
      tenantId,
      event: 'stock.adjusted',
      data: {
        warehouseCode: index % 3 === 0 ? 'MAIN' : 'EAST',
        locationCode: 'A-01',
        sku: `SKU-${index}`,
        lotNo: null,
        qtyDelta: 1,
        qtyOnHand: 1,
        reason: 'count',
      },
    });
    await appendEvents(
      ctx,
      Array.from({ length: 10 }, (_v, index) => adjusted(index)),
    );
    // Feed positions, which order a tenant's latest events, are given by the relay.
    await ctx.runtime.db.sequelize.query(
      `UPDATE events SET relayed_at = now(), feed_position = nextval('events_feed_position_seq')
        WHERE id IN (SELECT id FROM events WHERE relayed_at IS NULL ORDER BY seq)`,
    );
    const { page } = portal;
    await signInThroughForm(page, TEST_ADMIN.email, TEST_ADMIN.password);
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('link', { name: 'Create subscription' }).click();
    await page.getByLabel(/^URL/).fill('https://93.184.215.14/hooks');
    await page.getByLabel('stock.adjusted').check();

    await page.getByLabel('Filter').fill('{ "warehouseCode": { "$in": ["MAIN"] } }');
    await page.getByRole('button', { name: 'Test against recent events' }).click();
    await page.getByText('Would have matched 4 of the latest 10 events').waitFor();
    await page.getByLabel('Max deliveries per second').fill('50');
    await page.getByLabel('Ordered per document').check();
    await checkPage(portal, 'webhook-controls-create');
    await page.getByLabel('Filter').fill('{ "warehouseCode": { "$regex": "M" } }');
    await page.getByRole('button', { name: 'Test against recent events' }).click();
    await page
      .getByText(/\$regex is not allowed/)
      .first()
      .waitFor();
    await checkPage(portal, 'webhook-controls-bad-filter');
    await page.getByLabel('Filter').fill('{ "warehouseCode": { "$in": ["MAIN"] } }');
    await page.getByRole('button', { name: 'Create subscription' }).click();
    await page.getByText('whsec_', { exact: false }).first().waitFor();

    const [saved] = await ctx.services.webhooks.list({ tenantId: null });
    expect(saved).toMatchObject({
      filter: { warehouseCode: { $in: ['MAIN'] } },
      maxDeliveriesPerSecond: 50,
      ordered: true,
    });
  }, 120_000);

  it("shows in the attempts dialog the wait a receiver asked for with Retry-After, and the retry's success after it", async () => {
    receiver.on('/busy', (_request, index) =>
      index === 0 ? { status: 429, headers: { 'retry-after': '2' }, body: 'slow down' } : {},
    );
    startTestWebhookWorker(ctx, { webhook: { backoffBaseMs: 200, maxAttempts: 3, timeoutMs: 2_000 } });
    const subscription = await createSubscription(ctx, {
      url: receiver.urlFor('/busy'),
      events: ['order.shipped'],
      tenantId: await defaultTenantId(ctx),
    });
    const { page } = portal;
    await page.goto(`${gateway.url}/admin/webhooks/${subscription.id}`);
    await page.getByRole('heading', { name: 'Webhook subscription', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Send test event' }).click();
    const log = page.getByTestId('delivery-log');
    await log.getByTestId('delivery-status').filter({ hasText: 'succeeded' }).waitFor({ timeout: 20_000 });
    const [refused, accepted] = await receiver.waitForRequests('/busy', 2);
    // The worker waited what the receiver asked for, not its own 200 ms backoff.
    expect(accepted!.receivedAt - refused!.receivedAt).toBeGreaterThanOrEqual(1_900);

    await log.getByRole('button', { name: /^Attempts of delivery/ }).click();
    const attempts = page.getByRole('dialog', { name: 'Attempts of webhook.test' });
    await attempts.getByRole('cell', { name: '429', exact: true }).waitFor();
    await attempts.getByRole('cell', { name: '2 s', exact: true }).waitFor();
    await attempts.getByRole('cell', { name: '200' }).waitFor();
    await checkPage(portal, 'webhook-attempts-retry-after', '[role="dialog"]');
    await page.keyboard.press('Escape');
  }, 120_000);
});
