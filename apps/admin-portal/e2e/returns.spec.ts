import { QueryTypes } from 'sequelize';
import type { Browser } from 'playwright-core';
import {
  createMasterData,
  createTenantWithWarehouse,
  createTestContext,
  TEST_ADMIN,
  type TestContext,
  type TestGateway,
} from '@wms/testing';
import { checkPage, launchBrowser, openPortal, signInThroughForm, type PortalPage } from './browser.js';

/** Staff find a customer return in the portal's list and receive it: part restocked, part quarantined, then closed. */
describe('admin portal: returns list and receive form', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let browser: Browser;
  let portal: PortalPage;
  let tenantId: string;

  beforeAll(async () => {
    ctx = await createTestContext('portal-returns');
    gateway = await ctx.startGateway();
    browser = await launchBrowser();
    portal = await openPortal(browser, gateway.url);
    tenantId = await tenantWithReturn(ctx);
  });
  afterAll(async () => {
    await browser?.close();
    await ctx.close();
  });

  it('lists the return, receives 2 restocked and 1 quarantined, shows the receipt, and closes it short', async () => {
    const { page } = portal;

    // The first load compiles and caches the portal's scripts: on a busy machine it takes its time.
    await page.goto('/admin/sign-in', { timeout: 60_000 });
    await signInThroughForm(page, TEST_ADMIN.email, TEST_ADMIN.password);
    await page.getByRole('link', { name: 'Returns' }).click();
    await page.getByRole('heading', { name: 'Returns', level: 1 }).waitFor();
    await page.locator('input').and(page.getByLabel('Tenant')).click();
    await page.getByRole('option', { name: /^RETPORTAL/ }).click();
    const row = page.getByTestId('returns-table').locator('tbody tr');
    await row.first().waitFor();
    expect(await row.first().locator('td').allTextContents()).toEqual([
      'RMA-PORTAL',
      expect.stringMatching(/^SO-/),
      'WH1',
      'Open',
      '0 / 4',
      expect.any(String),
    ]);
    await checkPage(portal, 'returns-list');

    await page.getByRole('link', { name: 'RMA-PORTAL' }).click();
    await page.getByRole('heading', { name: 'Return RMA-PORTAL', level: 1 }).waitFor();
    const form = page.getByTestId('receive-form');
    await form.getByLabel('Quantity of PLAIN').fill('2');
    await form.getByRole('button', { name: 'Split PLAIN' }).click();
    await form.getByLabel('Quantity of PLAIN').nth(1).fill('1');
    await form.locator('input').and(form.getByLabel('Disposition of PLAIN').nth(1)).click();
    await page.getByRole('option', { name: 'Quarantine' }).click();
    await checkPage(portal, 'returns-receive-form');
    await form.getByRole('button', { name: 'Receive' }).click();

    const receipts = page.getByTestId('return-receipts').locator('tbody tr');
    await receipts.nth(1).waitFor();
    expect(await receipts.nth(0).locator('td').allTextContents()).toEqual([
      expect.any(String),
      'PLAIN',
      '—',
      '2',
      'restock',
      'RECEIVING',
    ]);
    expect(await receipts.nth(1).locator('td').allTextContents()).toEqual([
      expect.any(String),
      'PLAIN',
      '—',
      '1',
      'quarantine',
      'QUARANTINE',
    ]);
    await page.getByText('Partially received').first().waitFor();
    expect(await page.getByTestId('return-lines').locator('tbody td').allTextContents()).toEqual([
      '1',
      'PLAIN',
      '—',
      '4',
      '3',
      'damaged',
    ]);
    await checkPage(portal, 'returns-received');

    await page.getByRole('button', { name: 'Close return' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Close return' }).click();
    await page.getByText('Closed', { exact: true }).waitFor();
    const stock = await ctx.runtime.db.sequelize.query<{ code: string; qty: number }>(
      `SELECT l.code, s.qty_on_hand::float8 AS qty FROM stock_rows s JOIN locations l ON l.id = s.location_id
       WHERE s.tenant_id = $1 ORDER BY l.code`,
      { bind: [tenantId], type: QueryTypes.SELECT },
    );
    expect(stock).toEqual([
      { code: 'A-01', qty: 6 },
      { code: 'QUARANTINE', qty: 1 },
      { code: 'RECEIVING', qty: 2 },
    ]);
  }, 120_000);

  it("finds a tenant's returns by the shop's reference of the returned order", async () => {
    const { page } = portal;
    await tenantWithManyReturns(ctx, 'RETREF', 2);

    await page.getByRole('link', { name: 'Returns' }).click();
    await page.getByRole('heading', { name: 'Returns', level: 1 }).waitFor();
    await page.locator('input').and(page.getByLabel('Tenant')).click();
    await page.getByRole('option', { name: /^RETREF/ }).click();
    const rmaCells = page.getByTestId('returns-table').locator('tbody tr td:first-child');
    await rmaCells.nth(1).waitFor();
    await page.getByLabel('Order reference').fill('NO-SUCH-ORDER');
    await page.getByText('No returns.').waitFor();
    await page.getByLabel('Order reference').fill('MANY-RETURNS');
    await rmaCells.nth(1).waitFor();

    expect(await rmaCells.allTextContents()).toEqual(['RMA-MANY-001', 'RMA-MANY-002']);
    await checkPage(portal, 'returns-by-reference');
    await page.getByRole('link', { name: 'RMA-MANY-001' }).click();
    await page.getByRole('heading', { name: 'Return RMA-MANY-001', level: 1 }).waitFor();
  }, 120_000);

  it('reads a list longer than a page with "Load more", in order, and stops when there is no more', async () => {
    const { page } = portal;
    await tenantWithManyReturns(ctx, 'RETMANY', MANY_RETURNS);

    await page.getByRole('link', { name: 'Returns' }).click();
    await page.getByRole('heading', { name: 'Returns', level: 1 }).waitFor();
    await page.locator('input').and(page.getByLabel('Tenant')).click();
    await page.getByRole('option', { name: /^RETMANY/ }).click();
    const rmaCells = page.getByTestId('returns-table').locator('tbody tr td:first-child');
    await rmaCells.nth(99).waitFor();
    expect(await rmaCells.count()).toBe(100);

    await page.getByRole('button', { name: 'Load more' }).click();
    await rmaCells.nth(MANY_RETURNS - 1).waitFor();
    expect(await rmaCells.allTextContents()).toEqual(
      Array.from({ length: MANY_RETURNS }, (_, n) => `RMA-MANY-${String(n + 1).padStart(3, '0')}`),
    );
    await page.getByRole('button', { name: 'Load more' }).waitFor({ state: 'detached' });
    await checkPage(portal, 'returns-load-more');
  }, 120_000);
});

/** More returns than the portal's page of 100. */
const MANY_RETURNS = 105;

/** Tenant RETPORTAL whose order shipped PLAIN 4, and the return RMA-PORTAL of all of it; answers the tenant. */
async function tenantWithReturn(ctx: TestContext): Promise<string> {
  const { tenant } = await createTenantWithWarehouse(ctx, 'RETPORTAL', 'WH1');
  await createMasterData(ctx, tenant.id, {
    items: [{ sku: 'PLAIN' }],
    partners: [{ code: 'CUST', type: 'customer' }],
    locations: [{ warehouseCode: 'WH1', code: 'A-01' }],
  });
  await ctx.runtime.db.sequelize.transaction(async (transaction) => {
    const context = { tenantId: tenant.id, transaction };
    await ctx.services.grns.receive(context, {
      warehouseCode: 'WH1',
      lines: [{ sku: 'PLAIN', uomCode: 'EA', qty: 10, locationCode: 'A-01' }],
    });
    const [order] = await ctx.services.orders.createOrders(context, [
      {
        warehouseCode: 'WH1',
        customerCode: 'CUST',
        priority: 0,
        referenceNo: 'PORTAL-RETURN',
        lines: [{ lineNo: 1, sku: 'PLAIN', uomCode: 'EA', qtyOrdered: 4 }],
      },
    ]);
    if (!order?.ok) throw new Error('order not created');
    const orderNo = order.data.orderNo as string;
    await ctx.services.allocation.allocate(context, orderNo);
    await ctx.services.picking.release(context, orderNo);
    await ctx.services.picking.pickAll(context, orderNo);
    await ctx.services.shipping.ship(context, orderNo, {});
    const [created] = await ctx.services.returns.createReturns(context, [
      { rmaNo: 'RMA-PORTAL', orderNo, lines: [{ sku: 'PLAIN', qty: 4, reason: 'damaged' }] },
    ]);
    if (!created?.ok) throw new Error('return not created');
  });
  return tenant.id;
}

/**
 * Tenant `code` whose shipped order is returned in `count` returns of one each, RMA-MANY-001 on, each created
 * after the one before (the list's order).
 */
async function tenantWithManyReturns(ctx: TestContext, code: string, count: number): Promise<void> {
  const { tenant } = await createTenantWithWarehouse(ctx, code, 'WH1');
  await createMasterData(ctx, tenant.id, {
    items: [{ sku: 'MANY' }],
    partners: [{ code: 'CUST', type: 'customer' }],
    locations: [{ warehouseCode: 'WH1', code: 'A-01' }],
  });
  const context = { tenantId: tenant.id };
  const orderNo = await ctx.runtime.db.sequelize.transaction(async (transaction) => {
    const inTransaction = { ...context, transaction };
    await ctx.services.grns.receive(inTransaction, {
      warehouseCode: 'WH1',
      lines: [{ sku: 'MANY', uomCode: 'EA', qty: count, locationCode: 'A-01' }],
    });
    const [order] = await ctx.services.orders.createOrders(inTransaction, [
      {
        warehouseCode: 'WH1',
        customerCode: 'CUST',
        priority: 0,
        referenceNo: 'MANY-RETURNS',
        lines: [{ lineNo: 1, sku: 'MANY', uomCode: 'EA', qtyOrdered: count }],
      },
    ]);
    if (!order?.ok) throw new Error('order not created');
    const no = order.data.orderNo as string;
    await ctx.services.allocation.allocate(inTransaction, no);
    await ctx.services.picking.release(inTransaction, no);
    await ctx.services.picking.pickAll(inTransaction, no);
    await ctx.services.shipping.ship(inTransaction, no, {});
    return no;
  });
  // One transaction each: the list orders by the time of the last change, and a transaction's rows share one.
  for (let n = 1; n <= count; n += 1) {
    const rmaNo = `RMA-MANY-${String(n).padStart(3, '0')}`;
    const [created] = await ctx.runtime.db.sequelize.transaction((transaction) =>
      ctx.services.returns.createReturns({ ...context, transaction }, [
        { rmaNo, orderNo, lines: [{ sku: 'MANY', qty: 1, reason: 'unwanted' }] },
      ]),
    );
    if (!created?.ok) throw new Error(`${rmaNo} not created`);
  }
}
