import type { Browser } from 'playwright-core';
import {
  createApiKey,
  createMasterData,
  createTenantWithWarehouse,
  createTestContext,
  loginAs,
  request,
  TEST_ADMIN,
  type TestContext,
  type TestGateway,
} from '@wms/testing';
import { checkPage, launchBrowser, openPortal, signInThroughForm, type PortalPage } from './browser.js';

/** A stock item's history in the portal: its movements with their causes, an order's opened beside them. */
describe('admin portal: stock item history end to end', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let browser: Browser;
  let portal: PortalPage;
  let tenantCode: string;
  let orderNo: string;

  beforeAll(async () => {
    ctx = await createTestContext('portal-stock-history');
    gateway = await ctx.startGateway();
    const { tenant } = await createTenantWithWarehouse(ctx);
    tenantCode = tenant.code;
    await createMasterData(ctx, tenant.id, {
      items: [{ sku: 'MUG' }],
      partners: [{ code: 'CUST', type: 'customer' }],
      locations: [{ warehouseCode: 'WH1', code: 'A-01' }],
    });
    const key = (await createApiKey(ctx, { tenantId: tenant.id })).rawKey;
    const headers = { 'x-api-key': key };
    const base = `${gateway.url}/api/v1/integration/v1`;
    await request(base, 'POST', '/grn', {
      headers,
      body: { warehouseCode: 'WH1', lines: [{ sku: 'MUG', uomCode: 'EA', qty: 12, locationCode: 'A-01' }] },
    });
    const order = await request(base, 'POST', '/orders', {
      headers,
      body: {
        warehouseCode: 'WH1',
        customerCode: 'CUST',
        referenceNo: 'WEB-1001',
        lines: [{ lineNo: 1, sku: 'MUG', uomCode: 'EA', qtyOrdered: 5 }],
      },
    });
    orderNo = String(order.body.data.orderNo);
    const admin = await loginAs(gateway.url, TEST_ADMIN.email, TEST_ADMIN.password);
    const staff = (path: string, body: unknown) =>
      request(gateway.url, 'POST', `/api/v1${path}?tenantId=${tenant.id}`, { token: admin, body });
    await staff(`/orders/${orderNo}/allocate`, {});
    await staff('/stock/adjustments', {
      warehouseCode: 'WH1',
      locationCode: 'A-01',
      sku: 'MUG',
      qtyDelta: -2,
      reason: 'broken in the aisle',
    });
    browser = await launchBrowser();
    portal = await openPortal(browser, gateway.url);
  });
  afterAll(async () => {
    await browser?.close();
    await ctx.close();
  });

  it("shows an item's movements with their causes and balances, and opens the order a movement names", async () => {
    const { page } = portal;
    await page.goto('/admin/sign-in', { timeout: 60_000 });
    await signInThroughForm(page, TEST_ADMIN.email, TEST_ADMIN.password);
    await page.getByRole('link', { name: 'Stock history' }).click();
    await page.getByRole('heading', { name: 'Stock history', level: 1 }).waitFor();
    await page.locator('input').and(page.getByLabel('Tenant')).click();
    await page.getByRole('option', { name: new RegExp(`^${tenantCode}`) }).click();
    await page.getByLabel('SKU').fill('MUG');
    await page.getByRole('button', { name: 'Show history' }).click();

    const rows = page.locator('tbody tr');
    await rows.nth(2).waitFor();
    const cells = async (n: number) => (await rows.nth(n).locator('td').allTextContents()).slice(1);
    expect(await cells(0)).toEqual([
      'WH1 / A-01',
      '—',
      'grn',
      expect.stringMatching(/^GRN-/),
      '+12',
      '',
      '12',
      'API key',
    ]);
    expect(await cells(1)).toEqual(['WH1 / A-01', '—', 'allocation', orderNo, '', '+5', '12', 'user']);
    expect(await cells(2)).toEqual([
      'WH1 / A-01',
      '—',
      'adjustment',
      expect.stringMatching(/…$/),
      '-2',
      '',
      '10',
      'user',
    ]);
    expect(new URL(page.url()).searchParams.get('sku')).toBe('MUG');
    await checkPage(portal, 'stock-history');

    await page.getByRole('button', { name: orderNo }).click();
    const drawer = page.getByRole('region', { name: `Order ${orderNo}` });
    await drawer.getByText('allocated', { exact: true }).waitFor();
    expect(await drawer.locator('tbody td').allTextContents()).toEqual(['1', 'MUG', '5', '5', '0']);
    await checkPage(portal, 'stock-history-order');
  }, 120_000);
});
