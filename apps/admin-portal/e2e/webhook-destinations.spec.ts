import type { Browser } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import {
  SHARED_AMQP_URL,
  TEST_ADMIN,
  createTestContext,
  rabbitMqReader,
  startTestWebhookWorker,
  uniqueName,
  type BrokerReader,
  type TestContext,
  type TestGateway,
} from '@wms/testing';
import { checkPage, launchBrowser, openPortal, signInThroughForm, type PortalPage } from './browser.js';

/** A subscription to a RabbitMQ exchange set up through the portal: create, test, read back masked. */
describe('admin portal: broker destinations', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let browser: Browser;
  let portal: PortalPage;
  let reader: BrokerReader;
  const exchange = uniqueName('wms-portal');

  beforeAll(async () => {
    ctx = await createTestContext('portal-webhook-destinations', { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
    gateway = await ctx.startGateway();
    reader = await rabbitMqReader(exchange);
    startTestWebhookWorker(ctx, { webhook: { backoffBaseMs: 200, maxAttempts: 3, timeoutMs: 2_000 } });
    browser = await launchBrowser();
    portal = await openPortal(browser, gateway.url);
  });
  afterAll(async () => {
    await browser?.close();
    await reader?.close();
    await ctx.close();
  });

  it('creates a RabbitMQ subscription whose test event reaches the exchange signed, and shows its URL without the password', async () => {
    const { page } = portal;
    await signInThroughForm(page, TEST_ADMIN.email, TEST_ADMIN.password);
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('link', { name: 'Create subscription' }).click();

    await page.getByText('RabbitMQ', { exact: true }).click();
    await page.getByLabel(/^AMQP URL/).fill(SHARED_AMQP_URL);
    await page.getByLabel(/^Exchange/).fill(exchange);
    await page.getByLabel('order.shipped').check();
    await checkPage(portal, 'webhook-create-rabbitmq');
    await page.getByRole('button', { name: 'Create subscription' }).click();
    const secretText = page.getByTestId('webhook-secret');
    await secretText.waitFor();
    const secret = (await secretText.textContent())!.trim();
    await page.getByRole('button', { name: 'I have copied the secret' }).click();
    await page.getByRole('heading', { name: 'Webhook subscription', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Send test event' }).click();
    const log = page.getByTestId('delivery-log');
    await log.getByTestId('delivery-status').filter({ hasText: 'succeeded' }).waitFor({ timeout: 20_000 });
    const [message] = await reader.waitFor(1);
    await page.getByText('RabbitMQ exchange').waitFor();
    await log.getByText('confirmed', { exact: true }).waitFor();
    await checkPage(portal, 'webhook-detail-rabbitmq');

    expect(() => new Webhook(secret).verify(message!.body, message!.headers)).not.toThrow();
    expect(JSON.parse(message!.body)).toMatchObject({ event: 'webhook.test' });
    expect(message!.address).toMatch(/^wms\.webhook\.test\./);
    const content = await page.content();
    expect(content).toContain('amqp://guest:****@127.0.0.1:5672');
    expect(content).not.toContain('guest:guest');
  }, 120_000);
});
