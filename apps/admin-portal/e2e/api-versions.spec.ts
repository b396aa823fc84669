import type { Browser } from 'playwright-core';
import { createTestContext, loginAs, request, TEST_ADMIN, type TestContext, type TestGateway } from '@wms/testing';
import { checkPage, launchBrowser, openPortal, signInThroughForm, type PortalPage } from './browser.js';

/** The key and subscription forms preselect the deployment's default version and say what the newer one changes. */
describe("admin portal: the forms' API version", () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let browser: Browser;
  let portal: PortalPage;

  beforeAll(async () => {
    ctx = await createTestContext('portal-api-versions', { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
    gateway = await ctx.startGateway();
    browser = await launchBrowser();
    portal = await openPortal(browser, gateway.url);
    await signInThroughForm(portal.page, TEST_ADMIN.email, TEST_ADMIN.password);
  });
  afterAll(async () => {
    await browser?.close();
    await ctx.close();
  });

  const versionField = () => portal.page.locator('input').and(portal.page.getByLabel('API version'));
  const newerChange = () => portal.page.getByText(/2026-12-01: quantities are exact decimal strings/);

  it('when a key is created without touching the version, the form shows the default, says what 2026-12-01 changes, and the key gets the default', async () => {
    const { page } = portal;
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('link', { name: 'Create API key' }).click();
    await page.getByLabel('Name').fill('Defaults');

    await newerChange().waitFor();
    expect(await versionField().inputValue()).toBe('2026-11-21 (default)');
    await checkPage(portal, 'api-key-create-version');
    await page.locator('input').and(page.getByLabel('Tenant')).click();
    await page.getByRole('option', { name: /^DEFAULT/ }).click();
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByTestId('raw-key').waitFor();

    const token = await loginAs(gateway.url, TEST_ADMIN.email, TEST_ADMIN.password);
    const keys = await request<{ name: string; apiVersion: string }[]>(gateway.url, 'GET', '/api/v1/api-keys', {
      token,
    });
    expect(keys.body.find((key) => key.name === 'Defaults')?.apiVersion).toBe('2026-11-21');
  });

  it('when a subscription is created, its form preselects the default version too and offers the newer one', async () => {
    const { page } = portal;
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('link', { name: 'Create subscription' }).click();

    await newerChange().waitFor();
    expect(await versionField().inputValue()).toBe('2026-11-21 (default)');
    await versionField().click();
    await page.getByRole('option', { name: '2026-12-01' }).waitFor();
    await versionField().press('Escape');
    await checkPage(portal, 'webhook-create-version');
  });
});
