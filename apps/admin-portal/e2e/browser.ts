import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AxeBuilder } from '@axe-core/playwright';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/**
 * Real headless Chromium for the portal's end-to-end specs: Debian's `chromium` package (`.ci/run`
 * installs it when missing), driven by playwright-core, which downloads no browser of its own.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Screenshots of every page the specs visit, kept as test artifacts (git-ignored). */
export const ARTIFACTS_DIR = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  '..',
  'test-artifacts',
  'admin-portal',
);

/** A laptop screen. */
export const VIEWPORT = { width: 1366, height: 860 };

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`No Chromium at ${CHROMIUM_PATH}: install Debian's chromium package (apt-get install -y chromium)`);
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
}

export interface PortalPage {
  context: BrowserContext;
  page: Page;
  /** Console errors and Content-Security-Policy violations seen so far. */
  problems: string[];
}

/** A fresh browser context (its own cookies) with one page at the portal's base URL. */
export async function openPortal(browser: Browser, baseUrl: string): Promise<PortalPage> {
  const context = await browser.newContext({ baseURL: baseUrl, viewport: VIEWPORT });
  const page = await context.newPage();
  // A step that cannot happen fails with its own message well before the test's timeout.
  page.setDefaultTimeout(10_000);
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  return { context, page, problems };
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const path = join(ARTIFACTS_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

export function writeArtifact(name: string, content: string): void {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  writeFileSync(join(ARTIFACTS_DIR, name), content);
}

/** axe-core's serious and critical violations on the page as it is now, as readable lines. */
export async function seriousViolations(page: Page, include?: string): Promise<string[]> {
  const builder = new AxeBuilder({ page });
  if (include) builder.include(include);
  const results = await builder.analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help} at ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    );
}

/**
 * What any page must pass: a screenshot saved, no serious accessibility violation, no CSP violation.
 * With a dialog open, `include` names it: the page behind the dialog's overlay is out of reach.
 */
export async function checkPage(portal: PortalPage, name: string, include?: string): Promise<void> {
  await screenshot(portal.page, name);
  expect(await seriousViolations(portal.page, include)).toEqual([]);
  expect(portal.problems.filter((problem) => /Content Security Policy/i.test(problem))).toEqual([]);
}

/** Signs in through the form by keyboard alone (type, Tab, Enter); resolves once the overview shows. */
export async function signInThroughForm(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/admin/sign-in');
  await page.getByLabel('E-mail').focus();
  await page.keyboard.type(email);
  await page.keyboard.press('Tab');
  await page.keyboard.type(password);
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
}
