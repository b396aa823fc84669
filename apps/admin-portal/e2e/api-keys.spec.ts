import type { Browser } from 'playwright-core';
import { createTestContext, request, TEST_ADMIN, type TestContext, type TestGateway } from '@wms/testing';
import { checkPage, launchBrowser, openPortal, signInThroughForm, type PortalPage } from './browser.js';

/** The admin's path through the portal: sign in, create a key, watch its traffic, revoke it. */
describe('admin portal: API keys end to end', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let browser: Browser;
  let portal: PortalPage;

  beforeAll(async () => {
    ctx = await createTestContext('portal-api-keys');
    gateway = await ctx.startGateway();
    browser = await launchBrowser();
    portal = await openPortal(browser, gateway.url);
  });
  afterAll(async () => {
    await browser?.close();
    await ctx.close();
  });

  const callFeed = (rawKey: string) =>
    request(gateway.url, 'GET', '/api/v1/integration/v1/events', { headers: { 'x-api-key': rawKey } });

  it('signs in, creates a key shown once, sees its call in the detail, revokes it and the call is refused', async () => {
    const { page } = portal;
    await page.goto('/admin/sign-in');
    await page.getByLabel('E-mail').waitFor();
    await checkPage(portal, 'sign-in');

    await signInThroughForm(page, TEST_ADMIN.email, TEST_ADMIN.password);
    // The screenshot and the accessibility check of the overview as its user sees it: loaded, not its spinner.
    await page.getByTestId('metric-Requests 24 h').waitFor();
    await page.getByRole('heading', { name: 'Queues' }).waitFor();
    await checkPage(portal, 'overview');

    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();
    await checkPage(portal, 'api-keys');

    await page.getByRole('link', { name: 'Create API key' }).click();
    await page.getByLabel('Name').fill('Shop integration');
    await page.getByLabel('Description').fill('The web shop pushes orders and reads stock');
    const scopes = page.getByRole('combobox', { name: 'Scopes' });
    for (const scope of ['orders', 'inventory']) {
      await scopes.fill(scope);
      await scopes.press('Enter');
    }
    await scopes.press('Escape');
    await page.locator('input').and(page.getByLabel('Tenant')).click();
    await page.getByRole('option', { name: /^DEFAULT/ }).click();
    await page.getByLabel('IP whitelist').fill('127.0.0.1\n10.0.0.0/8\n::1');
    await page.getByLabel('Allowed origins').fill('https://shop.example.com');
    await page.getByLabel('Rate limit (requests per minute)').fill('600');
    await checkPage(portal, 'api-key-create');
    await page.getByRole('button', { name: 'Create key' }).click();

    const rawKeyText = page.getByTestId('raw-key');
    await rawKeyText.waitFor();
    await page.getByText('This is the only time the key is shown').waitFor();
    await checkPage(portal, 'api-key-created');
    const rawKey = (await rawKeyText.textContent())!.trim();
    expect(rawKey).toMatch(/^wms_[0-9A-Za-z]{36}$/);

    const accepted = await callFeed(rawKey);
    expect(accepted.status).toBe(200);
    await gateway.flushRequestLog();

    await page.getByRole('link', { name: 'I have copied the key' }).click();
    await page.getByRole('heading', { name: 'Shop integration', level: 1 }).waitFor();
    // The raw key is gone for good: the detail never shows it.
    await page.getByTestId('recent-requests').getByText('/api/v1/integration/v1/events').waitFor();
    expect(await page.content()).not.toContain(rawKey);
    expect(await page.getByTestId('stat-Requests 24 h').textContent()).toBe('1');
    await page.getByTestId('traffic-chart').locator('.recharts-bar-rectangle path').first().waitFor();
    await page.getByText('Audit trail').waitFor();
    await page.getByRole('cell', { name: 'api_key.created' }).waitFor();
    await checkPage(portal, 'api-key-detail');

    await page.getByRole('link', { name: 'Edit' }).click();
    const rateLimit = page.getByLabel('Rate limit (requests per minute)');
    await rateLimit.fill('1200');
    await checkPage(portal, 'api-key-edit');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('1,200 / minute').waitFor();
    await page.getByRole('cell', { name: 'api_key.updated' }).waitFor();

    await page.getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('dialog', { name: 'Revoke this key?' }).waitFor();
    await checkPage(portal, 'api-key-revoke-confirm', '[role="dialog"]');
    await page.getByRole('button', { name: 'Revoke key' }).click();
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Activate', exact: true }).waitFor();
    await page.getByText('Calls with this key are refused with 401').waitFor();
    await checkPage(portal, 'api-key-revoked');

    const refused = await callFeed(rawKey);
    expect(refused.status).toBe(401);

    // The list finds the key by a scope label and shows it revoked.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API keys' }).click();
    await page.getByLabel('Search keys').fill('inventory default');
    const row = page.getByRole('row', { name: /Shop integration/ });
    await row.getByText('revoked').waitFor();
    expect(await page.getByRole('row').count()).toBe(2);
    await page.getByLabel('Search keys').fill('no-such-label');
    await page.getByText('No key matches the search.').waitFor();

    // Nothing of the session is kept where a script could read it later: the one readable cookie is the
    // session hint, which says a session exists and holds no token.
    const stored = await page.evaluate(
      '({ local: localStorage.length, session: sessionStorage.length, cookie: document.cookie })',
    );
    expect(stored).toEqual({ local: 0, session: 0, cookie: 'wms_session=1' });
  }, 180_000);
});
