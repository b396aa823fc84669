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

const DAY_MS = 86_400_000;

/** A key about to expire is seen on the overview and in the list, then rolled with a grace period, the old key revoked early. */
describe('admin portal: key expiry and roll end to end', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let browser: Browser;
  let portal: PortalPage;

  beforeAll(async () => {
    ctx = await createTestContext('portal-key-roll');
    gateway = await ctx.startGateway();
    browser = await launchBrowser();
    portal = await openPortal(browser, gateway.url);
  });
  afterAll(async () => {
    await browser?.close();
    await ctx.close();
  });

  const callFeed = async (rawKey: string) =>
    (await request(gateway.url, 'GET', '/api/v1/integration/v1/events', { headers: { 'x-api-key': rawKey } })).status;

  it('shows the expiring key, rolls it with a grace period, revokes the previous key now; each key works exactly as long as it should', async () => {
    const { page } = portal;
    const tenantId = await defaultTenantId(ctx);
    const expiring = await createApiKey(ctx, {
      name: 'Carrier feed',
      tenantId,
      expiresAt: new Date(Date.now() + 5 * DAY_MS),
    });
    await createApiKey(ctx, { name: 'Long-lived ERP', tenantId, expiresAt: new Date(Date.now() + 90 * DAY_MS) });

    await signInThroughForm(page, TEST_ADMIN.email, TEST_ADMIN.password);
    const soon = page.getByRole('region', { name: 'Keys expiring within 14 days' });
    await soon.getByRole('link', { name: 'Carrier feed' }).waitFor();
    expect(await soon.getByRole('link', { name: 'Long-lived ERP' }).count()).toBe(0);
    await checkPage(portal, 'overview-expiring-keys');

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('row', { name: /Long-lived ERP/ }).waitFor();
    await page
      .getByRole('row', { name: /Carrier feed/ })
      .getByText('expires soon')
      .waitFor();
    await page.getByText('Expiring within 14 days').click();
    await page.getByText('Long-lived ERP').waitFor({ state: 'detached' });
    await page.getByRole('row', { name: /Carrier feed/ }).waitFor();
    await checkPage(portal, 'api-keys-expiring');

    await page.getByRole('link', { name: 'Carrier feed' }).click();
    await page
      .getByTestId('expiry-warning')
      .getByText(/stops working on/)
      .waitFor();

    // Roll with one hour of grace: both raw keys work until the old one is revoked.
    await page.getByRole('button', { name: 'Roll key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Roll this key?' });
    await dialog.getByLabel('1 hour').check();
    await checkPage(portal, 'api-key-roll-confirm', '[role="dialog"]');
    await dialog.getByRole('button', { name: 'Roll key' }).click();
    const rawKeyText = page.getByTestId('raw-key');
    await rawKeyText.waitFor();
    const newKey = (await rawKeyText.textContent())!.trim();
    expect(newKey).not.toBe(expiring.rawKey);
    await page.getByText('This is the only time the key is shown').waitFor();
    await page
      .getByTestId('roll-note')
      .getByText(/keeps working until/)
      .waitFor();
    await checkPage(portal, 'api-key-rolled');
    expect([await callFeed(newKey), await callFeed(expiring.rawKey)]).toEqual([200, 200]);

    await page.getByRole('button', { name: 'Revoke previous key now' }).click();
    await page.getByRole('dialog', { name: 'Revoke the previous key now?' }).waitFor();
    await page.getByRole('button', { name: 'Revoke previous key', exact: true }).click();
    await page.getByTestId('roll-note').getByText('The previous key no longer works.').waitFor();
    expect([await callFeed(newKey), await callFeed(expiring.rawKey)]).toEqual([200, 401]);

    await page.getByRole('button', { name: 'I have copied the key' }).click();
    await page.getByRole('heading', { name: 'Carrier feed', level: 1 }).waitFor();
    expect(await page.content()).not.toContain(newKey);
    expect(await page.getByTestId('previous-key').count()).toBe(0);
    await page.getByRole('cell', { name: 'api_key.previous_revoked' }).waitFor();
    await page.getByRole('cell', { name: 'api_key.rolled' }).waitFor();
    await checkPage(portal, 'api-key-after-roll');
  }, 120_000);

  it('while a rolled key is in its grace period, the detail says both work and the previous one can be revoked from there', async () => {
    const { page } = portal;
    const key = await createApiKey(ctx, { name: 'Warehouse scanner', tenantId: await defaultTenantId(ctx) });
    await ctx.services.apiKeys.roll(key.id, 3_600, { userId: null, tenantId: null });

    await page.goto(`/admin/api-keys/${key.id}`);
    const previous = page.getByTestId('previous-key');
    await previous.getByText(key.keyPrefix).waitFor();
    await checkPage(portal, 'api-key-grace');
    await previous.getByRole('button', { name: 'Revoke previous key now' }).click();
    await page.getByRole('button', { name: 'Revoke previous key', exact: true }).click();
    await previous.waitFor({ state: 'detached' });

    expect(await callFeed(key.rawKey)).toBe(401);
  }, 60_000);
});
