import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import {
  RecordingEdiOutbound,
  TEST_ADMIN,
  createTenantWithWarehouse,
  createTestContext,
  insertInterchange,
  sampleInterchange,
  type TestContext,
  type TestGateway,
} from '@wms/testing';
import { checkPage, launchBrowser, openPortal, signInThroughForm, type PortalPage } from './browser.js';

/** An EDI partner set up through the portal: add it, see its SFTP password once, read a document, resend it. */
describe('admin portal: EDI partners end to end', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let browser: Browser;
  let portal: PortalPage;
  let outbound: RecordingEdiOutbound;
  const shots = mkdtempSync(join(tmpdir(), 'portal-edi-'));
  const shoot = (name: string) => portal.page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });

  beforeAll(async () => {
    ctx = await createTestContext('portal-edi-partners');
    outbound = new RecordingEdiOutbound(ctx.runtime.db);
    gateway = await ctx.startGateway({}, { ediOutbound: outbound });
    await createTenantWithWarehouse(ctx, 'EDIP', 'WH1');
    browser = await launchBrowser();
    portal = await openPortal(browser, gateway.url);
    process.stdout.write(`EDI portal screenshots: ${shots}\n`);
  });
  afterAll(async () => {
    await browser?.close();
    await ctx.close();
  });

  it('adds a partner, shows its SFTP password once, lists and opens a document and sends it again', async () => {
    const { page } = portal;
    await signInThroughForm(page, TEST_ADMIN.email, TEST_ADMIN.password);
    await page.getByRole('link', { name: 'EDI partners' }).click();
    await page.getByRole('heading', { name: 'EDI partners', level: 1 }).waitFor();
    await page.getByText('No trading partners yet.').waitFor();

    await page.getByRole('link', { name: 'Add partner' }).click();
    await page.locator('input').and(page.getByLabel('Tenant')).click();
    await page.getByRole('option', { name: /^EDIP/ }).click();
    await page.getByLabel(/^Name/).fill('Initech Retail');
    await page.getByLabel('Partner ISA ID').fill('INITECH');
    await page.getByLabel('Partner GS code').fill('INITECHGS');
    await page.getByLabel('Our ISA ID').fill('OURWMS');
    await page.getByLabel('Our GS code').fill('OURWMSGS');
    await page.getByLabel('Default warehouse').fill('WH1');
    await page.getByLabel('SFTP user name').fill('initech');
    await shoot('partner-form');
    await checkPage(portal, 'edi-partner-form');
    await page.getByRole('button', { name: 'Add partner' }).click();

    await page.getByRole('heading', { name: 'Initech Retail', level: 1 }).waitFor();
    await page.getByText('password not set').waitFor();
    await page.getByRole('button', { name: 'Generate password' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Generate' }).click();
    const shown = page.getByTestId('sftp-password');
    await shown.waitFor();
    const password = (await shown.textContent())!.trim();
    expect(password).toMatch(/^[A-Za-z0-9_-]{32}$/);
    await shoot('password-once');
    await checkPage(portal, 'edi-password-once');
    await page.getByRole('button', { name: 'I have copied the password' }).click();
    await page.getByText('password set').waitFor();
    expect(await page.content()).not.toContain(password);

    const partnerId = page.url().split('/').at(-1)!;
    const partner = {
      id: partnerId,
      tenantId: (await ctx.services.edi.partners.get(partnerId, { tenantId: null })).tenantId,
    };
    const raw = sampleInterchange('945', '000000314', ['W06', 'N', 'ORD-314', '20261202']);
    const sent = await insertInterchange(
      ctx.runtime.db,
      partner,
      { direction: 'out', state: 'sent', setCodes: ['945'], interchangeControl: '000000314', raw: Buffer.from(raw) },
      new Date(Date.now() - 30 * 3_600_000),
    );
    await page.reload();
    const row = page.getByRole('table', { name: 'Documents' }).getByRole('row').filter({ hasText: '000000314' });
    await row.getByTestId('document-overdue').waitFor();
    await shoot('partner-page');
    await checkPage(portal, 'edi-partner-page');

    await row.getByRole('link').click();
    await page.getByRole('heading', { name: 'Sent 945', level: 1 }).waitFor();
    const segments = page.getByRole('table', { name: 'Segments' });
    await segments.getByRole('row').filter({ hasText: 'ORD-314' }).waitFor();
    expect(await page.getByTestId('document-raw').textContent()).toBe(raw);
    await shoot('document-page');
    await checkPage(portal, 'edi-document');

    await page.getByRole('button', { name: 'Send again' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Send again' }).click();
    await page.getByText('the first sending').waitFor();
    await shoot('resent-document');
    expect(outbound.resent.map(({ interchangeId }) => interchangeId)).toEqual([sent.id]);
    expect(portal.problems).toEqual([]);
  }, 120_000);
});
