import { readFile } from 'node:fs/promises';
import type { Browser } from 'playwright-core';
import { createTestContext, TEST_ADMIN, type TestContext, type TestGateway } from '@wms/testing';
import { checkPage, launchBrowser, openPortal, signInThroughForm, type PortalPage } from './browser.js';

/** A partners file uploaded from the browser: progress, counts, and the rows that failed as a CSV to fix. */
describe('admin portal: file imports end to end', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let browser: Browser;
  let portal: PortalPage;

  beforeAll(async () => {
    ctx = await createTestContext('portal-imports', { IMPORT_CHUNK_ROWS: '500' });
    gateway = await ctx.startGateway();
    await ctx.startIngestWorker();
    browser = await launchBrowser();
    portal = await openPortal(browser, gateway.url);
  });
  afterAll(async () => {
    await browser?.close();
    await ctx.close();
  });

  it('uploads a CSV of partners, shows the finished import with its counts, and downloads the failed rows', async () => {
    const { page } = portal;
    const records = Array.from({ length: 1_500 }, (_unused, index) => `WEB-${index},Partner ${index},customer`);
    records[41] = 'WEB-41,Partner 41,martian';
    const file = `code,name,type\n${records.join('\n')}\n`;

    // The first load compiles and caches the portal's scripts: on a busy machine it takes its time.
    await page.goto('/admin/sign-in', { timeout: 60_000 });
    await signInThroughForm(page, TEST_ADMIN.email, TEST_ADMIN.password);
    await page.getByRole('link', { name: 'Imports' }).click();
    await page.getByRole('heading', { name: 'Imports', level: 1 }).waitFor();
    await page.locator('input').and(page.getByLabel('Tenant')).click();
    await page.getByRole('option', { name: /^DEFAULT/ }).click();
    await page.locator('input').and(page.getByLabel('Entity')).click();
    await page.getByRole('option', { name: 'Partners' }).click();
    await page
      .locator('input[type=file]')
      .setInputFiles({ name: 'partners.csv', mimeType: 'text/csv', buffer: Buffer.from(file) });
    await page.getByRole('button', { name: 'Upload' }).click();

    const row = page.locator('tr', { has: page.getByText('completed', { exact: true }) });
    await row.waitFor({ timeout: 60_000 });
    await page.getByText('1,500 of 1,500 rows (100%)').waitFor();
    expect(await row.locator('td').allTextContents()).toEqual([
      expect.any(String),
      'partners (csv)',
      'completed',
      '1,500 of 1,500 rows (100%)',
      '1,499',
      '0',
      '1',
      'Download errors',
    ]);
    await checkPage(portal, 'imports');
    const download = page.waitForEvent('download');
    await row.getByRole('button', { name: 'Download errors' }).click();
    const errors = await readFile((await (await download).path())!, 'utf8');

    expect(errors).toBe(
      'code,name,type,error\r\nWEB-41,Partner 41,martian,"type must be one of [supplier, customer, carrier, other]"\r\n',
    );
  }, 120_000);
});
