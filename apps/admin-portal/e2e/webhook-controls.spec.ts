import type { Browser } from 'playwright-core';
import type { AppendEventInput } from '@wms/events';
import {
  appendEvents,
  createTestContext,
  defaultTenantId,
  TEST_ADMIN,
  type TestContext,
  type TestGateway,
} from '@wms/testing';
import { checkPage, launchBrowser, openPortal, signInThroughForm, type PortalPage } from './browser.js';

/** A subscriber's controls set in the portal: a filter tried on recent events, a rate, ordered delivery. */
describe('admin portal: webhook subscriber controls', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let browser: Browser;
  let portal: PortalPage;

  beforeAll(async () => {
    ctx = await createTestContext('portal-webhook-controls', { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
    gateway = await ctx.startGateway();
    browser = await launchBrowser();
    portal = await openPortal(browser, gateway.url);
  });
  afterAll(async () => {
    await browser?.close();
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
});
