import { createWriteStream } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { QueryTypes } from 'sequelize';
import {
  createApiKey,
  createMasterData,
  createSandboxTenant,
  createSubscription,
  createTestContext,
  defaultTenantId,
  startTestWebhookWorker,
  startWebhookReceiver,
  type TestContext,
  type TestGateway,
  type WebhookReceiver,
} from '@wms/testing';
import { integrationOpenApiDocument } from '../../../apps/gateway/src/integration/docs.routes.js';
import { startFailingProxy } from './failing-proxy.js';
import { compileInScratch, installPackedClient, type ClientModule, type PackedClient } from './packed-client.js';

const IMPORT_ROWS = 10_000;

/** An integrator's code, importing the package by its name: it must compile, and its refused lines must be refused. */
const CONSUMER = `import { createClient, WmsApiError, type WebhookEvent } from '@wms/client';
const wms = createClient({ baseUrl: 'https://wms.example.com', apiKey: 'key' });
export async function run(body: string, headers: Record<string, string>): Promise<number> {
  const event: WebhookEvent = wms.webhooks.unwrap(body, headers, ['whsec_new', 'whsec_old']);
  const written = await wms.items.upsert({ sku: 'A', name: 'A', baseUomCode: 'EA' });
  // @ts-expect-error: an item needs a name
  await wms.items.upsert({ sku: 'A', baseUomCode: 'EA' });
  for await (const listed of wms.paginate('/orders', { limit: 10 })) void listed.orderNo;
  if (written.data.created && event.event === 'stock.adjusted') return Number(event.data.qtyDelta);
  const order = await wms.orders.get('SO-1');
  const orderNo: string = order.data.orderNo;
  const stock = await wms.stock.get({ sku: 'A' });
  const onHand: string | number = stock.data.stocks[0].qtyOnHand;
  if (event.event === 'order.shipped') {
    const shipped: string[] = [event.data.orderNo, event.data.shipmentNo, event.data.trackingNo ?? ''];
    const lots: (string | null)[] = event.data.lines.map((line) => line.lotNo);
    const skus: string[] = event.data.lines.map((line) => line.sku);
    const qty: string | number = event.data.lines[0].qty;
    return shipped.length + lots.length + skus.length + Number(qty) + orderNo.length + Number(onHand);
  }
  return new WmsApiError({ statusCode: 400, message: 'x' }).statusCode;
}
`;

describe('the packed typed client against the running service', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let receiver: WebhookReceiver;
  let packed: PackedClient;
  let wms: ClientModule;
  let client: ReturnType<ClientModule['createClient']>;
  let apiKey: string;
  let tenantId: string;

  beforeAll(async () => {
    [ctx, packed, receiver] = await Promise.all([
      createTestContext('typed-client', { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' }),
      installPackedClient(),
      startWebhookReceiver(),
    ]);
    wms = packed.module;
    gateway = await ctx.startGateway();
    await ctx.startIngestWorker();
    startTestWebhookWorker(ctx, { webhook: { backoffBaseMs: 200 } });
    tenantId = await defaultTenantId(ctx);
    apiKey = (await createApiKey(ctx, { tenantId })).rawKey;
    client = wms.createClient({ baseUrl: gateway.url, apiKey });
    await createMasterData(ctx, tenantId, {
      partners: [{ code: 'CUST', type: 'customer' }],
      items: [{ sku: 'ORD-1' }],
    });
  }, 120_000);
  afterAll(async () => {
    await receiver?.close();
    await ctx?.close();
    await packed?.remove();
  });

  const count = async (sql: string, bind: unknown[]): Promise<number> =>
    (await ctx.runtime.db.sequelize.query<{ n: number }>(sql, { bind, type: QueryTypes.SELECT }))[0]!.n;
  const itemsWithSku = (skus: string[]) =>
    count('SELECT count(*)::int AS n FROM items WHERE tenant_id = $1 AND sku = ANY($2::text[])', [tenantId, skus]);
  const order = (referenceNo: string) => ({
    warehouseCode: 'MAIN',
    customerCode: 'CUST',
    referenceNo,
    lines: [{ lineNo: 1, sku: 'ORD-1', uomCode: 'EA', qtyOrdered: 1 }],
  });

  it('when the service is asked for the document of the version the client sends, it is the one the client was generated from', async () => {
    // Without ?version= the document is the deployment's default version's; the client's types follow the newest.
    const served = await fetch(`${gateway.url}${wms.INTEGRATION_BASE}/openapi.json?version=${wms.API_VERSION}`).then(
      (answer) => answer.json(),
    );

    expect(served).toEqual(JSON.parse(JSON.stringify(integrationOpenApiDocument())));
  });

  it('when an integrator compiles against the installed package under strict, its declarations type calls and events', async () => {
    await writeFile(join(packed.folder, 'consumer.ts'), CONSUMER);

    const compiled = await compileInScratch(packed.folder, 'consumer.ts');

    expect(compiled).toEqual({ ok: true, output: '' });
  }, 60_000);

  it('when an item is upserted twice, the first call creates it and the second updates it', async () => {
    const first = await client.items.upsert({ sku: 'CLIENT-1', name: 'Client item', baseUomCode: 'EA' });
    const second = await client.items.upsert({ sku: 'CLIENT-1', name: 'Client item, renamed', baseUomCode: 'EA' });

    expect(first).toMatchObject({ status: 'success', data: { sku: 'CLIENT-1', created: true } });
    expect(second.data).toMatchObject({ sku: 'CLIENT-1', created: false, id: first.data.id });
  });

  it('when the catalogue is read back, items.get, paginate over items and stock.levels answer what was written', async () => {
    await client.items.upsert({ sku: 'READ-1', name: 'Read back', baseUomCode: 'EA', weightKg: 2 });
    await client.items.upsert({ sku: 'READ-2', name: 'Read back too', baseUomCode: 'EA' });

    const one = await client.items.get('READ-1');
    const walked: string[] = [];
    for await (const item of client.paginate('/items', { sku: ['READ-1', 'READ-2'], limit: 1 })) walked.push(item.sku);
    const levels = await client.stock.levels({ sku: ['READ-2', 'READ-1'] });

    expect(one.data).toMatchObject({ sku: 'READ-1', name: 'Read back', weightKg: 2, tracking: 'none' });
    expect(walked).toEqual(['READ-1', 'READ-2']);
    expect(levels.data.map((level) => [level.sku, level.stocks])).toEqual([
      ['READ-2', []],
      ['READ-1', []],
    ]);
    await expect(client.items.get('READ-NONE')).rejects.toMatchObject({ statusCode: 404, code: 'NOT_FOUND' });
  });

  it('when a body is refused, the call throws a WmsApiError with the status, code, details and request id', async () => {
    const refused = client.items.upsert({ sku: 'CLIENT-BAD', baseUomCode: 'EA' } as never);

    await expect(refused).rejects.toBeInstanceOf(wms.WmsApiError);
    await expect(refused).rejects.toMatchObject({
      statusCode: 400,
      code: 'VALIDATION_FAILED',
      requestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      details: expect.arrayContaining([expect.objectContaining({ path: 'name' })]),
    });
  });

  it('when the key is wrong, the guard answer becomes a WmsApiError 401 with its code and request id', async () => {
    const stranger = wms.createClient({ baseUrl: gateway.url, apiKey: 'wms_not_a_key', retries: 0 });

    await expect(stranger.items.upsert({ sku: 'X', name: 'X', baseUomCode: 'EA' })).rejects.toMatchObject({
      name: 'WmsApiError',
      statusCode: 401,
      code: 'INVALID_API_KEY',
      requestId: expect.any(String),
    });
  });

  it('when a bulk call runs as a dry run nothing is written, and run for real every entry is', async () => {
    const items = ['BULK-1', 'BULK-2', 'BULK-3'].map((sku) => ({ sku, name: `Item ${sku}`, baseUomCode: 'EA' }));

    const dry = await client.items.bulk({ items }, { dryRun: true });
    const writtenAfterDryRun = await itemsWithSku(items.map((item) => item.sku));
    const real = await client.items.bulk({ items });

    expect(dry).toMatchObject({ status: 'success', total: 3, created: 3 });
    expect(writtenAfterDryRun).toBe(0);
    expect(real).toMatchObject({ status: 'success', total: 3, created: 3 });
    expect(await itemsWithSku(items.map((item) => item.sku))).toBe(3);
  });

  it('when a bulk call asks to respond async, it answers 202 with a job that jobs.wait follows to its end', async () => {
    const accepted = await client.orders.bulk({ orders: [order('ASYNC-1'), order('ASYNC-2')] }, { respondAsync: true });
    if (accepted.status !== 'accepted') throw new Error(`expected 202, got ${accepted.status}`);

    const job = await client.jobs.wait(accepted.jobId, { intervalMs: 100, timeoutMs: 30_000 });

    expect(job).toMatchObject({ jobId: accepted.jobId, state: 'completed', result: { total: 2, created: 2 } });
  });

  it('when a list has several pages, paginate walks every order through the cursor', async () => {
    const references = Array.from({ length: 7 }, (_, index) => `PAGE-${index}`);
    await client.orders.bulk({ orders: references.map(order) });
    const pages: URL[] = [];
    const counting = wms.createClient({
      baseUrl: gateway.url,
      apiKey,
      fetch: (request) => {
        pages.push(new URL(request.url));
        return fetch(request);
      },
    });

    const seen: string[] = [];
    for await (const listed of counting.paginate('/orders', { limit: 2 })) seen.push(String(listed.referenceNo));

    expect(seen).toEqual(expect.arrayContaining(references));
    expect(new Set(seen).size).toBe(seen.length);
    // Two orders a page; a last full page may be followed by an empty one, depending on the list's lookahead.
    expect(pages.length).toBeGreaterThanOrEqual(Math.ceil(seen.length / 2));
    expect(pages.length).toBeLessThanOrEqual(Math.ceil(seen.length / 2) + 1);
    expect(pages.slice(1).every((page) => page.searchParams.has('cursor'))).toBe(true);
  });

  it(`when a ${IMPORT_ROWS.toLocaleString('en')}-row file is uploaded gzipped, jobs.wait follows the import to its end`, async () => {
    const path = join(packed.folder, 'items.ndjson');
    const file = createWriteStream(path);
    for (let row = 0; row < IMPORT_ROWS; row += 1) {
      file.write(`${JSON.stringify({ sku: `IMP-${row}`, name: `Imported ${row}`, baseUomCode: 'EA' })}\n`);
    }
    file.end();
    await finished(file);

    const accepted = await client.imports.upload(path, { entity: 'items', gzip: true });
    const job = await client.jobs.wait(accepted.jobId, { intervalMs: 250, timeoutMs: 120_000 });

    expect(job).toMatchObject({ state: 'completed', total: IMPORT_ROWS, created: IMPORT_ROWS, failed: 0 });
    expect(
      await count(`SELECT count(*)::int AS n FROM items WHERE tenant_id = $1 AND sku LIKE 'IMP-%'`, [tenantId]),
    ).toBe(IMPORT_ROWS);
  }, 150_000);

  it('when a write answers 503 with Retry-After, the client waits and retries with the same Idempotency-Key, and the service writes once', async () => {
    const proxy = await startFailingProxy(gateway.url, { failures: 1, retryAfterSeconds: 1 });
    const throughProxy = wms.createClient({ baseUrl: proxy.url, apiKey });
    try {
      const written = await throughProxy.items.upsert({ sku: 'RETRY-1', name: 'Retried', baseUomCode: 'EA' });

      const [first, second] = proxy.forwarded;
      expect(proxy.forwarded).toHaveLength(2);
      expect(first!.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
      expect(second!.headers['idempotency-key']).toBe(first!.headers['idempotency-key']);
      expect(second!.receivedAt - first!.receivedAt).toBeGreaterThanOrEqual(900);
      expect([first!.replayed, second!.replayed]).toEqual([null, 'true']);
      expect(written.data).toMatchObject({ sku: 'RETRY-1', created: true });
      expect(await itemsWithSku(['RETRY-1'])).toBe(1);
    } finally {
      await proxy.close();
    }
  });

  it('when the connection drops before the answer, the client sends the write again with the same key and gets the first answer back', async () => {
    const proxy = await startFailingProxy(gateway.url, { failures: 1, drop: true });
    const throughProxy = wms.createClient({ baseUrl: proxy.url, apiKey });
    try {
      const written = await throughProxy.orders.create(order('DROPPED-1'));

      const [first, second] = proxy.forwarded;
      expect(proxy.forwarded).toHaveLength(2);
      expect(second!.headers['idempotency-key']).toBe(first!.headers['idempotency-key']);
      expect([first!.upstreamStatus, second!.upstreamStatus, second!.replayed]).toEqual([201, 201, 'true']);
      expect(written.data).toMatchObject({ referenceNo: 'DROPPED-1' });
      expect(
        await count('SELECT count(*)::int AS n FROM sales_orders WHERE tenant_id = $1 AND reference_no = $2', [
          tenantId,
          'DROPPED-1',
        ]),
      ).toBe(1);
    } finally {
      await proxy.close();
    }
  });

  it('when an order is cancelled, its webhook reaches the receiver and unwraps to a typed event; a tampered body is refused', async () => {
    const subscription = await createSubscription(ctx, {
      url: receiver.urlFor('/orders'),
      events: ['order.cancelled'],
      tenantId,
    });
    const created = await client.orders.create(order('HOOK-1'));
    const orderNo = String(created.data.orderNo);

    await client.orders.cancel(orderNo);
    const [delivery] = await receiver.waitForRequests('/orders', 1, 30_000);
    const headers = delivery!.headers as Record<string, string>;
    const event = client.webhooks.unwrap(delivery!.body, headers, ['whsec_' + 'A'.repeat(44), subscription.secret]);
    const tampered = delivery!.body.replace(orderNo, `${orderNo}-X`);

    expect(event.event).toBe('order.cancelled');
    if (event.event !== 'order.cancelled') throw new Error('narrowing failed');
    expect(event.data).toMatchObject({ orderNo, referenceNo: 'HOOK-1', tenantId });
    expect(() => client.webhooks.unwrap(tampered, headers, subscription.secret)).toThrow(wms.WebhookVerificationError);
    expect(() => client.webhooks.unwrap(delivery!.body, headers, 'whsec_' + 'B'.repeat(44))).toThrow(
      wms.WebhookVerificationError,
    );
  }, 60_000);
  it('when a sandbox key runs a simulation, the stock moves and its event is answered; a production key gets NOT_A_SANDBOX', async () => {
    const { tenant } = await createSandboxTenant(ctx);
    const sandboxKey = (await createApiKey(ctx, { tenantId: tenant.id })).rawKey;
    const sandbox = wms.createClient({ baseUrl: gateway.url, apiKey: sandboxKey });
    await sandbox.items.upsert({ sku: 'SIM-1', name: 'Simulated', baseUomCode: 'EA' });

    const run = await sandbox.simulations.run({ type: 'stock.adjusted', sku: 'SIM-1', qtyDelta: 5 });
    const stock = await sandbox.stock.get({ sku: 'SIM-1' });
    const refused = await client.simulations.run({ type: 'stock.adjusted', sku: 'ORD-1', qtyDelta: 1 }).then(
      () => undefined,
      (error: unknown) => error,
    );

    expect(run.data.events?.map((event) => event.event)).toEqual(['stock.adjusted']);
    // The client sends the Wms-Version its types follow: quantities are decimal strings.
    expect(stock.data).toMatchObject({ sku: 'SIM-1', totalOnHand: '5.0000' });
    expect(refused).toBeInstanceOf(wms.WmsApiError);
    expect(refused).toMatchObject({ statusCode: 403, code: 'NOT_A_SANDBOX' });
  }, 60_000);
});
