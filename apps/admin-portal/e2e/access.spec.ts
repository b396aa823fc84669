import type { Browser } from 'playwright-core';
import { ACCOUNT_NOT_ACTIVE, INVALID_CREDENTIALS } from '@wms/identity';
import {
  createApiKey,
  createTestContext,
  createUser,
  request,
  TEST_ADMIN,
  type TestContext,
  type TestGateway,
} from '@wms/testing';
import { checkPage, launchBrowser, openPortal, signInThroughForm, writeArtifact } from './browser.js';

/** Sign-in refusals as the API words them, what a read-only user sees, and the session across a reload. */
describe('admin portal: sign-in and access', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let browser: Browser;

  beforeAll(async () => {
    ctx = await createTestContext('portal-access');
    gateway = await ctx.startGateway();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await ctx.close();
  });

  const tryPassword = async (email: string, password: string) => {
    const portal = await openPortal(browser, gateway.url);
    const { page } = portal;
    await page.goto('/admin/sign-in');
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel(/^Password/).fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    return portal;
  };

  it('the sign-in page is usable from the built files (time recorded, not asserted: speed is the bench’s job)', async () => {
    const portal = await openPortal(browser, gateway.url);
    const { page } = portal;

    // CPU time of the page's main thread as well as the wall clock: on a busy machine the two differ.
    const cdp = await portal.context.newCDPSession(page);
    await cdp.send('Performance.enable');
    await page.goto('/admin/sign-in');
    await page.getByLabel('E-mail').waitFor();
    const { metrics } = await cdp.send('Performance.getMetrics');
    const cpu = Object.fromEntries(
      metrics
        .filter((metric) =>
          ['TaskDuration', 'ScriptDuration', 'LayoutDuration', 'RecalcStyleDuration'].includes(metric.name),
        )
        .map((metric) => [`${metric.name}Ms`, Math.round(metric.value * 1000)]),
    );
    const usableAfterMs = Number(await page.evaluate('performance.now()'));
    const timings = await page.evaluate(`(() => {
      const [navigation] = performance.getEntriesByType('navigation');
      return {
        responseEnd: navigation.responseEnd,
        domContentLoaded: navigation.domContentLoadedEventEnd,
        resources: performance.getEntriesByType('resource').map((entry) => ({
          name: entry.name.replace(location.origin, ''),
          start: Math.round(entry.startTime),
          end: Math.round(entry.responseEnd),
        })),
      };
    })()`);
    await writeArtifact(
      'first-load.json',
      JSON.stringify({ page: '/admin/sign-in', usableAfterMs, mainThreadCpu: cpu, ...(timings as object) }, null, 2),
    );

    expect(usableAfterMs).toBeGreaterThan(0);
    await portal.context.close();
  }, 60_000);

  it('a wrong password shows the API’s message and stays on the sign-in page', async () => {
    const portal = await tryPassword(TEST_ADMIN.email, 'not-the-password');

    await portal.page.getByTestId('sign-in-error').getByText(INVALID_CREDENTIALS).waitFor();
    expect(new URL(portal.page.url()).pathname).toBe('/admin/sign-in');
    await checkPage(portal, 'sign-in-wrong-password');
    await portal.context.close();
  }, 60_000);

  it('a locked account shows the API’s message', async () => {
    const { user, password } = await createUser(ctx, { status: 'locked', adminModules: ['api-keys'] });

    const portal = await tryPassword(user.email, password);

    await portal.page.getByTestId('sign-in-error').getByText(ACCOUNT_NOT_ACTIVE).waitFor();
    await portal.context.close();
  }, 60_000);

  it('a viewer with read access to API keys sees the keys but no create, edit or revoke, and no other module', async () => {
    await createApiKey(ctx, { name: 'ERP feed' });
    const { user, password } = await createUser(ctx, { role: 'viewer', adminModules: ['api-keys'] });
    const portal = await openPortal(browser, gateway.url);
    const { page } = portal;

    await signInThroughForm(page, user.email, password);
    const nav = page.getByRole('navigation', { name: 'Main' });
    expect(await nav.getByRole('link').allTextContents()).toEqual(['Overview', 'API keys']);
    await page.getByTestId('metric-Requests 24 h').waitFor();
    expect(await page.getByRole('heading', { name: 'Queues' }).count()).toBe(0);
    await checkPage(portal, 'overview-viewer');

    await nav.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('link', { name: 'ERP feed' }).waitFor();
    expect(await page.getByRole('link', { name: 'Create API key' }).count()).toBe(0);
    await checkPage(portal, 'api-keys-viewer');

    await page.getByRole('link', { name: 'ERP feed' }).click();
    await page.getByRole('heading', { name: 'ERP feed', level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'Latest requests' }).waitFor();
    expect(await page.getByRole('button', { name: /^(Edit|Revoke|Activate)$/ }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Edit' }).count()).toBe(0);
    // No audit module: no audit trail section.
    expect(await page.getByRole('heading', { name: 'Audit trail' }).count()).toBe(0);

    // A page of a module the viewer lacks says so instead of failing.
    await page.goto('/admin/users');
    await page.getByText('Your account may not view users').waitFor();
    await portal.context.close();
  }, 120_000);

  it('a reload keeps the session (the refresh cookie), and sign-out ends it', async () => {
    const portal = await openPortal(browser, gateway.url);
    const { page } = portal;
    await signInThroughForm(page, TEST_ADMIN.email, TEST_ADMIN.password);

    await page.goto('/admin/api-keys');
    await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();

    // The admin's queue console opens outside the portal, with its own short-lived cookie.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Queues' }).click();
    await page.waitForURL('**/admin/queues/');
    expect(await page.title()).not.toBe('WMS Integration admin');
    await page.goBack();
    await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();

    const refreshCookie = (await portal.context.cookies()).find((cookie) => cookie.name === 'wms_refresh')!;
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.goto('/admin/api-keys');

    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/admin/sign-in');
    // The session ended on the server: a copy of the cookie taken before sign-out renews nothing.
    const replayed = await request(gateway.url, 'POST', '/api/v1/auth/refresh', {
      body: {},
      headers: { cookie: `wms_refresh=${refreshCookie.value}` },
    });
    expect(replayed.status).toBe(401);
    await portal.context.close();
  }, 60_000);

  it('the first load without a session shows sign-in quietly: no refresh call, no console error', async () => {
    const portal = await openPortal(browser, gateway.url);
    const { page } = portal;
    const refreshCalls: string[] = [];
    page.on('request', (sent) => {
      if (sent.url().includes('/api/v1/auth/refresh')) refreshCalls.push(sent.url());
    });

    await page.goto('/admin/api-keys', { waitUntil: 'domcontentloaded' });
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();

    expect(refreshCalls).toEqual([]);
    expect(portal.problems).toEqual([]);
    await portal.context.close();
  }, 60_000);
});
