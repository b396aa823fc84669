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
import { checkPage, launchBrowser, openPortal, signInThroughForm, type PortalPage } from './browser.js';

/** The tenant of a key made in the portal: the admin's own when it has one; "All tenants" says what it needs. */
describe('admin portal: the tenant of a new API key', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let browser: Browser;

  beforeAll(async () => {
    ctx = await createTestContext('portal-key-tenant');
    gateway = await ctx.startGateway();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await ctx.close();
  });

  const callFeed = (rawKey: string) =>
    request(gateway.url, 'GET', '/api/v1/integration/v1/events', { headers: { 'x-api-key': rawKey } });

  /** Fills the form's name and creates the key with the tenant as the form has it; answers the raw key. */
  async function createKey(portal: PortalPage, name: string): Promise<string> {
    const { page } = portal;
    await page.getByLabel('Name').fill(name);
    await page.getByRole('button', { name: 'Create key' }).click();
    const rawKey = page.getByTestId('raw-key');
    await rawKey.waitFor();
    return (await rawKey.textContent())!.trim();
  }

  async function openCreateForm(email: string, password: string): Promise<PortalPage> {
    const portal = await openPortal(browser, gateway.url);
    await signInThroughForm(portal.page, email, password);
    await portal.page.goto('/admin/api-keys/new');
    await portal.page.getByLabel('Name').waitFor();
    return portal;
  }

  it('when an admin of all tenants keeps "All tenants", the form says what such a key needs and the gateway’s 400 says where', async () => {
    const portal = await openCreateForm(TEST_ADMIN.email, TEST_ADMIN.password);
    const { page } = portal;
    const tenant = page.locator('input').and(page.getByLabel('Tenant'));

    await page.getByText('must name the tenant on every call').waitFor();
    await checkPage(portal, 'api-key-create-all-tenants');
    const shown = await tenant.inputValue();
    const rawKey = await createKey(portal, 'Cross-tenant reporting');
    const refused = await callFeed(rawKey);
    await portal.context.close();

    expect(shown).toBe('All tenants');
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      code: 'TENANT_REQUIRED',
      message: 'tenantId is required.',
      details: [{ path: 'tenantId', message: expect.stringContaining('in the query (?tenantId=') }],
    });
  });

  it('when the admin picks a tenant, the line says the key is bound to it', async () => {
    const portal = await openCreateForm(TEST_ADMIN.email, TEST_ADMIN.password);
    const { page } = portal;

    await page.locator('input').and(page.getByLabel('Tenant')).click();
    await page.getByRole('option', { name: /^DEFAULT/ }).click();
    await page.getByText("reads and writes that tenant's data only").waitFor();
    const stillSaysAllTenants = await page.getByText('must name the tenant on every call').count();
    await portal.context.close();

    expect(stillSaysAllTenants).toBe(0);
  });

  it('when an admin bound to a tenant creates a key, its tenant is preselected and the key works without naming one', async () => {
    const tenantId = await defaultTenantId(ctx);
    const { user, password } = await createUser(ctx, { role: 'admin', tenantId });
    const portal = await openCreateForm(user.email, password);
    const { page } = portal;

    const shown = await page.getByLabel('Tenant').inputValue();
    await page.getByText("reads and writes that tenant's data only").waitFor();
    await checkPage(portal, 'api-key-create-own-tenant');
    const rawKey = await createKey(portal, 'Shop of the default tenant');
    const accepted = await callFeed(rawKey);
    await portal.context.close();

    expect(shown).toBe(tenantId);
    expect(accepted.status).toBe(200);
  });
});
