import type { Browser } from 'playwright-core';
import { businessEventNames } from '@wms/events';
import { createTestContext, type TestContext, type TestGateway } from '@wms/testing';
import { launchBrowser, openPortal, screenshot } from './browser.js';

/**
 * The integration API's reference at /docs, as a person sees it in Chromium (the portal's browser
 * helpers drive it; the page is the gateway's, not the portal's).
 */
describe('integration API reference page', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let browser: Browser;

  beforeAll(async () => {
    ctx = await createTestContext('integration-docs-page');
    gateway = await ctx.startGateway();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await ctx.close();
  });

  it('when /docs is opened, it renders the operations, schemas, error codes and webhooks, with no CSP violation', async () => {
    const portal = await openPortal(browser, gateway.url);
    const { page } = portal;
    // Every violation of the page's Content-Security-Policy, reported or not on the console.
    await page.addInitScript({
      content:
        'window.cspViolations = []; document.addEventListener("securitypolicyviolation", (event) => ' +
        'window.cspViolations.push(event.violatedDirective + " " + event.blockedURI));',
    });

    await page.goto('/docs');
    await page.locator('.opblock-summary-path', { hasText: '/items/bulk' }).first().waitFor();
    await page.locator('.opblock-summary', { hasText: '/items/bulk' }).first().click();
    await page.locator('.opblock-body').first().waitFor();
    await screenshot(page, 'integration-docs');
    const text = await page.locator('body').innerText();

    expect(await page.locator('.opblock').count()).toBeGreaterThanOrEqual(18);
    expect(text).toContain('/items/bulk');
    expect(text).toContain('IDEMPOTENCY_KEY_MISMATCH');
    expect(text).toContain('baseUomCode');
    expect(text).toContain('order.shipped');
    expect(await page.evaluate('window.cspViolations')).toEqual([]);
    expect(portal.problems).toEqual([]);
  });

  it('the page describes every event an integrator may receive, with its data fields and the two signatures', async () => {
    const portal = await openPortal(browser, gateway.url);
    const { page } = portal;

    await page.goto('/docs');
    const shipped = page.locator('.opblock', { hasText: 'order.shipped' }).first();
    await shipped.locator('.opblock-summary').click();
    await shipped.locator('.opblock-body').waitFor();
    // The example body shows the event's data fields.
    await shipped.locator('.body-param__example, .highlight-code', { hasText: 'trackingNo' }).first().waitFor();
    await screenshot(page, 'integration-docs-webhook');
    const text = await page.locator('body').innerText();

    for (const name of [...businessEventNames, 'webhook.disabled']) expect(text).toContain(name);
    expect(text).toContain('trackingNo');
    expect(text).toContain('two signatures');
    expect(portal.problems).toEqual([]);
  });

  it('when the admin API is chosen above the reference, its document renders: the JWT routes, their modules and schemas', async () => {
    const portal = await openPortal(browser, gateway.url);
    const { page } = portal;

    await page.goto('/docs');
    await page.locator('.opblock-summary-path', { hasText: '/items/bulk' }).first().waitFor();
    await page.locator('#api-document').selectOption({ label: 'Admin API (JWT)' });
    await page.locator('.opblock-summary-path', { hasText: '/auth/login' }).first().waitFor();
    await screenshot(page, 'admin-docs');
    const text = await page.locator('body').innerText();

    expect(text).toContain('WMS admin API');
    expect(text).toContain('/api-keys/{id}/roll');
    expect(text).toContain('/webhooks/{id}/replay');
    expect(text).not.toContain('/items/bulk');
    expect(portal.problems).toEqual([]);
  });
});
