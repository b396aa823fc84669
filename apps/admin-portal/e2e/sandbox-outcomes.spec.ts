import type { Browser } from 'playwright-core';
import {
  createApiKey,
  createTestContext,
  defaultTenantId,
  request,
  TEST_ADMIN,
  type TestContext,
  type TestGateway,
} from '@wms/testing';
import { checkPage, launchBrowser, openPortal, signInThroughForm, type PortalPage } from './browser.js';

/** A cross-tenant admin makes a sandbox tenant, and sees a throttled key's rate-limited calls on its page. */
describe('admin portal: sandbox tenants and a key’s outcomes', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let browser: Browser;
  let portal: PortalPage;

  beforeAll(async () => {
    ctx = await createTestContext('portal-sandbox-outcomes');
    gateway = await ctx.startGateway();
    browser = await launchBrowser();
    portal = await openPortal(browser, gateway.url);
    await signInThroughForm(portal.page, TEST_ADMIN.email, TEST_ADMIN.password);
  });
  afterAll(async () => {
    await browser?.close();
    await ctx.close();
  });

  it('creates a sandbox tenant from the tenants page, which lists it with a Sandbox badge', async () => {
    const { page } = portal;
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tenants' }).click();
    await page.getByRole('heading', { name: 'Tenants', level: 1 }).waitFor();
    await page.getByTestId('tenant-DEFAULT').waitFor();

    await page.getByLabel('Code').fill('TRYOUT');
    await page.getByLabel('Name').fill('Integration try-out');
    await page.getByLabel('Sandbox').check();
    await page.getByRole('button', { name: 'Create tenant' }).click();

    await page.getByTestId('tenant-TRYOUT').getByTestId('sandbox-badge').waitFor();
    expect(await page.getByTestId('tenant-DEFAULT').getByTestId('sandbox-badge').count()).toBe(0);
    expect((await ctx.services.tenants.findByCode('TRYOUT'))?.sandbox).toBe(true);
    await checkPage(portal, 'tenants');
  });

  it('shows a throttled key’s rate-limited calls in its figures and as a series of its chart', async () => {
    const { page } = portal;
    const key = await createApiKey(ctx, {
      name: 'Chatty ERP',
      tenantId: await defaultTenantId(ctx),
      rateLimitPerMinute: 2,
    });
    const answers = await Promise.all(
      Array.from({ length: 14 }, () =>
        request(gateway.url, 'GET', '/api/v1/integration/v1/events', { headers: { 'x-api-key': key.rawKey } }),
      ),
    );
    expect(answers.filter((answer) => answer.status === 429)).toHaveLength(12);
    await gateway.flushRequestLog();

    await page.goto(`/admin/api-keys/${key.id}`);
    await page.getByRole('heading', { name: 'Chatty ERP', level: 1 }).waitFor();

    await page.getByTestId('stat-Rate-limited 7 d').getByText('12').waitFor();
    expect(await page.getByTestId('stat-Requests 24 h').textContent()).toBe('2');
    const chart = page.getByTestId('traffic-chart');
    await chart.getByText('Rate-limited (429)').waitFor();
    expect(await chart.locator('.recharts-bar-rectangle path').count()).toBeGreaterThanOrEqual(2);
    await checkPage(portal, 'api-key-outcomes');
  });
});
