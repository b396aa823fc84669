import type { Browser } from 'playwright-core';
import {
  createTestContext,
  createUser,
  defaultTenantId,
  request,
  TEST_ADMIN,
  type TestContext,
  type TestGateway,
} from '@wms/testing';
import { checkPage, launchBrowser, openPortal, signInThroughForm } from './browser.js';

/** The portal follows the API's manage-whom rule: whom one may change, and who may set a password. */
describe('admin portal: who may manage whom', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let browser: Browser;
  let tenantId: string;

  const login = (email: string, password: string) =>
    request(gateway.url, 'POST', '/api/v1/auth/login', { body: { email, password } });

  beforeAll(async () => {
    ctx = await createTestContext('portal-manage-whom');
    gateway = await ctx.startGateway();
    browser = await launchBrowser();
    tenantId = await defaultTenantId(ctx);
  });
  afterAll(async () => {
    await browser?.close();
    await ctx.close();
  });

  it('a manager sees no password, e-mail or changes for a peer, and no password or e-mail for a user below it', async () => {
    const manager = await createUser(ctx, {
      role: 'manager',
      tenantId,
      adminModules: ['users', 'orders'],
      adminModulesWrite: ['users', 'orders'],
    });
    const peer = await createUser(ctx, { role: 'manager', tenantId, adminModules: ['users'] });
    const operator = await createUser(ctx, { role: 'operator', tenantId, adminModules: ['orders'] });
    const portal = await openPortal(browser, gateway.url);
    const { page } = portal;

    await signInThroughForm(page, manager.user.email, manager.password);
    await page.goto(`/admin/users/${peer.user.id}`);
    await page.getByRole('heading', { name: peer.user.email, level: 1 }).waitFor();
    await page.getByText('Failed sign-ins').waitFor();

    expect(await page.getByLabel('New password').count()).toBe(0);
    expect(await page.getByLabel('E-mail').count()).toBe(0);
    await page.getByText('Not yours to change').waitFor();
    expect(await page.getByRole('button', { name: /Save changes|Disable|Enable|Unlock/ }).count()).toBe(0);
    await checkPage(portal, 'manage-whom-peer');

    await page.goto(`/admin/users/${operator.user.id}`);
    await page.getByRole('heading', { name: operator.user.email, level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Save changes' }).waitFor();

    expect(await page.getByLabel('New password').count()).toBe(0);
    expect(await page.getByLabel('E-mail').count()).toBe(0);
    await page.getByRole('button', { name: 'Disable', exact: true }).waitFor();
    await checkPage(portal, 'manage-whom-below');
    await portal.context.close();
  }, 180_000);

  it("an admin sets a manager's password from the user page; the manager signs in with it", async () => {
    const target = await createUser(ctx, { role: 'manager', tenantId, adminModules: ['users'] });
    const portal = await openPortal(browser, gateway.url);
    const { page } = portal;

    await signInThroughForm(page, TEST_ADMIN.email, TEST_ADMIN.password);
    await page.goto(`/admin/users/${target.user.id}`);
    await page.getByRole('heading', { name: target.user.email, level: 1 }).waitFor();
    await page.getByLabel('New password').fill('set-by-the-admin-1');
    await checkPage(portal, 'manage-whom-admin-password');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Saved.').waitFor();

    expect((await login(target.user.email, 'set-by-the-admin-1')).status).toBe(200);
    expect((await login(target.user.email, target.password)).status).toBe(401);
    await portal.context.close();
  }, 180_000);

  it('the users page shows a locked user as locked with an Unlock action that lets it sign in again', async () => {
    const manager = await createUser(ctx, {
      role: 'manager',
      tenantId,
      adminModules: ['users'],
      adminModulesWrite: ['users'],
    });
    const locked = await createUser(ctx, { role: 'viewer', tenantId, status: 'locked' });
    const lockedPeer = await createUser(ctx, { role: 'manager', tenantId, status: 'locked' });
    const portal = await openPortal(browser, gateway.url);
    const { page } = portal;
    expect((await login(locked.user.email, locked.password)).status).toBe(401);

    await signInThroughForm(page, manager.user.email, manager.password);
    await page.getByRole('link', { name: 'Users' }).click();
    await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
    const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: locked.user.email }) });
    const peerRow = page.getByRole('row').filter({ has: page.getByRole('link', { name: lockedPeer.user.email }) });
    await row.getByTestId('user-status').getByText('locked').waitFor();
    await peerRow.getByTestId('user-status').getByText('locked').waitFor();

    expect(await peerRow.getByRole('button', { name: 'Unlock' }).count()).toBe(0);
    await checkPage(portal, 'users-locked');
    await row.getByRole('button', { name: 'Unlock' }).click();
    await page.getByRole('dialog', { name: `Unlock ${locked.user.email}?` }).waitFor();
    await page.getByRole('button', { name: 'Unlock user' }).click();
    await row.getByTestId('user-status').getByText('active').waitFor();

    expect((await login(locked.user.email, locked.password)).status).toBe(200);
    await portal.context.close();
  }, 180_000);
});
