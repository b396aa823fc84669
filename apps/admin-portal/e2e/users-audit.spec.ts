import type { Browser } from 'playwright-core';
import {
  createTestContext,
  createUser,
  loginAs,
  request,
  TEST_ADMIN,
  type TestContext,
  type TestGateway,
} from '@wms/testing';
import { checkPage, launchBrowser, openPortal, signInThroughForm, type PortalPage } from './browser.js';

/** People administration through the portal, and the audit log that records it. */
describe('admin portal: users and the audit log end to end', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let browser: Browser;
  let admin: PortalPage;

  const login = (email: string, password: string) =>
    request(gateway.url, 'POST', '/api/v1/auth/login', { body: { email, password } });

  beforeAll(async () => {
    ctx = await createTestContext('portal-users-audit');
    gateway = await ctx.startGateway();
    browser = await launchBrowser();
    admin = await openPortal(browser, gateway.url);
  });
  afterAll(async () => {
    await browser?.close();
    await ctx.close();
  });

  it('creates a user, changes its modules, disables and enables it; the user then sees only its modules', async () => {
    const { page } = admin;
    await signInThroughForm(page, TEST_ADMIN.email, TEST_ADMIN.password);
    await page.getByRole('link', { name: 'Users' }).click();
    await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
    await page.getByRole('link', { name: TEST_ADMIN.email }).waitFor();

    await page.getByRole('link', { name: 'Create user' }).click();
    await page.getByLabel('E-mail').fill('dock.lead@warehouse.local');
    await page.getByLabel(/^Password/).fill('dock-lead-password');
    await page.getByLabel('First name').fill('Dana');
    await page.getByLabel('Last name').fill('Lead');
    await page.locator('input').and(page.getByLabel('Role')).click();
    await page.getByRole('option', { name: 'supervisor' }).click();
    await page.locator('input').and(page.getByLabel('Tenant')).click();
    await page.getByRole('option', { name: /^DEFAULT/ }).click();
    await page.getByLabel('Webhooks: Read', { exact: true }).check();
    await page.getByLabel('API keys: Read and write').check();
    await checkPage(admin, 'user-create');
    await page.getByRole('button', { name: 'Create user' }).click();

    await page.getByRole('heading', { name: 'dock.lead@warehouse.local', level: 1 }).waitFor();
    const created = (await ctx.services.users.repository.findByEmail('dock.lead@warehouse.local'))!;
    expect(created).toMatchObject({
      role: 'supervisor',
      adminModules: ['api-keys', 'webhooks'],
      adminModulesWrite: ['api-keys'],
    });

    await page.getByLabel('Webhooks: No access').check();
    await page.getByLabel('Audit log: Read', { exact: true }).check();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Saved.').waitFor();
    await page.getByRole('cell', { name: 'user.updated' }).waitFor();
    expect(await ctx.services.users.repository.findById(created.id)).toMatchObject({
      adminModules: ['api-keys', 'audit'],
      adminModulesWrite: ['api-keys'],
    });
    await checkPage(admin, 'user-detail');

    await page.getByRole('button', { name: 'Disable', exact: true }).click();
    await page.getByRole('dialog', { name: 'Disable this user?' }).waitFor();
    await checkPage(admin, 'user-disable-confirm', '[role="dialog"]');
    await page.getByRole('button', { name: 'Disable user' }).click();
    await page.getByRole('button', { name: 'Enable', exact: true }).waitFor();
    expect((await login('dock.lead@warehouse.local', 'dock-lead-password')).status).toBe(401);

    await page.getByRole('button', { name: 'Enable', exact: true }).click();
    await page.getByRole('button', { name: 'Enable user' }).click();
    await page.getByRole('button', { name: 'Disable', exact: true }).waitFor();
    expect((await login('dock.lead@warehouse.local', 'dock-lead-password')).status).toBe(200);

    await page.getByRole('link', { name: 'Users' }).click();
    await page.getByRole('link', { name: 'dock.lead@warehouse.local' }).waitFor();
    await checkPage(admin, 'users');
    await page.getByLabel('Search users').fill('DOCK');
    await page.getByRole('link', { name: TEST_ADMIN.email }).waitFor({ state: 'detached' });
    await page.getByRole('link', { name: 'dock.lead@warehouse.local' }).waitFor();

    // The new user's own view: its modules only, and no way to change what it may only read.
    const own = await openPortal(browser, gateway.url);
    await signInThroughForm(own.page, 'dock.lead@warehouse.local', 'dock-lead-password');
    const nav = own.page.getByRole('navigation', { name: 'Main' });
    expect(await nav.getByRole('link').allTextContents()).toEqual(['Overview', 'API keys', 'Audit log']);
    await own.page.goto('/admin/users');
    await own.page.getByText('No access').waitFor();
    await own.context.close();
  }, 120_000);

  it('filters the audit log by entity type and actor', async () => {
    const manager = await createUser(ctx, {
      email: 'night.manager@warehouse.local',
      role: 'manager',
      adminModules: ['users'],
      adminModulesWrite: ['users'],
    });
    const managerToken = await loginAs(gateway.url, manager.user.email, manager.password);
    const hired = await request(gateway.url, 'POST', '/api/v1/users', {
      token: managerToken,
      body: { email: 'night.picker@warehouse.local', password: 'night-picker-pw', role: 'operator' },
    });
    expect(hired.status).toBe(201);

    const { page } = admin;
    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('heading', { name: 'Audit log', level: 1 }).waitFor();
    await page.getByTestId('audit-table').getByText('user.created').first().waitFor();
    await checkPage(admin, 'audit');

    const entityType = page.getByRole('combobox', { name: 'Entity type' });
    await entityType.fill('user');
    await entityType.press('Escape');
    await page.getByLabel('Actor e-mail').fill('night.manager');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByText('1 entry').waitFor();
    const rows = page.getByTestId('audit-table').locator('tbody tr');
    expect(await rows.count()).toBe(1);
    await rows.first().getByText('night.manager@warehouse.local').waitFor();
    await rows.first().getByText('night.picker@warehouse.local').waitFor();
    expect(page.url()).toContain('actorEmail=night.manager');
    await checkPage(admin, 'audit-filtered');

    await page.getByLabel('Actor e-mail').fill(TEST_ADMIN.email);
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByText('4 entries').waitFor();
    const actions = await page.getByTestId('audit-table').locator('tbody tr td:nth-child(2)').allTextContents();
    expect(actions).toEqual(['user.enabled', 'user.disabled', 'user.updated', 'user.created']);
  }, 60_000);
});
