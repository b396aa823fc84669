import {
  createTestContext,
  integratorOf,
  pushMasterData,
  request,
  startTestWebhookWorker,
  startWebhookReceiver,
  subscribe,
  type Integrator,
  type TestContext,
  type TestGateway,
  type WebhookReceiver,
} from '@wms/testing';

const DECIMALS = '2026-12-01';
/** More significant digits than a double holds: it reads back exactly only if no float is on its way. */
const HUGE = '123456789012.3456';

/** `"name": <json>` in a JSON text, whatever its spacing (PostgreSQL's json_build_object writes ` : `). */
const written = (name: string, json: string) => new RegExp(`"${name}"\\s*:\\s*${json.replace(/[.]/g, '\\.')}\\s*[,}]`);

describe("the interface's shapes by default: a key and a subscription created as the interface says get numbers", () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let receiver: WebhookReceiver;
  let integrator: Integrator;
  let pinnedKey: string;

  const stockText = (sku: string, key?: string) =>
    integrator.text('GET', `/stock?sku=${sku}&warehouseCode=WH1`, undefined, key ? { 'x-api-key': key } : {});

  beforeAll(async () => {
    ctx = await createTestContext('default-version', { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
    gateway = await ctx.startGateway();
    receiver = await startWebhookReceiver();
    integrator = await integratorOf(gateway.url, 'DEFAULTS');
    // The same tenant's second key, pinned by the admin to the version of decimal strings.
    const pinned = await request(gateway.url, 'POST', '/api/v1/api-keys', {
      token: integrator.adminToken,
      body: { name: 'pinned', scopes: ['read', 'write'], tenantId: integrator.tenantId, apiVersion: DECIMALS },
    });
    pinnedKey = String(pinned.body.rawKey);
    await subscribe(integrator, receiver.urlFor('/as-the-interface-says'), ['asn.received']);
    const decimals = await request(gateway.url, 'POST', '/api/v1/webhooks', {
      token: integrator.adminToken,
      body: { url: receiver.urlFor('/pinned'), events: ['asn.received'], apiVersion: DECIMALS },
    });
    expect(decimals.status).toBe(201);
    startTestWebhookWorker(ctx);

    await pushMasterData(integrator);
    await integrator.call('POST', '/items', { sku: 'FOUR', name: 'Four of them', baseUomCode: 'EA' });
    const asn = await integrator.call('POST', '/asn', {
      warehouseCode: 'WH1',
      supplierCode: 'SUP',
      expectedDate: '2030-01-15',
      referenceNo: 'PO-HUGE',
      lines: [{ lineNo: 1, sku: 'PLAIN', uomCode: 'EA', expectedQty: Number(HUGE) }],
    });
    expect(asn.status).toBe(201);
    const receipts = [
      { asnNo: String(asn.body.data.asnNo), lines: [{ asnLineNo: 1, sku: 'PLAIN', uomCode: 'EA', qty: HUGE }] },
      { lines: [{ sku: 'FOUR', uomCode: 'EA', qty: 4, locationCode: 'A-01' }] },
    ];
    for (const receipt of receipts) {
      expect((await integrator.call('POST', '/grn', { warehouseCode: 'WH1', ...receipt })).status).toBe(201);
    }
  });
  afterAll(async () => {
    await receiver.close();
    await ctx.close();
  });

  it('when the key created with name, scopes and tenantId reads the stock, it gets JSON numbers and no Deprecation', async () => {
    const four = await stockText('FOUR');
    const body = JSON.parse(four.text) as { data: Record<string, unknown> };

    expect(integrator.key.apiVersion).toBe('2026-11-21');
    expect(four.status).toBe(200);
    expect(four.headers.get('wms-version')).toBe('2026-11-21');
    for (const header of ['deprecation', 'sunset', 'link']) expect(four.headers.get(header)).toBeNull();
    expect(body.data).toMatchObject({ totalOnHand: 4, totalAllocated: 0, totalAvailable: 4 });
    expect(four.text).toMatch(written('totalOnHand', '4'));
    expect(four.text).toMatch(written('qtyOnHand', '4'));
  });

  it('when a quantity holds more digits than a double, it reads back exactly as a number, and as a string pinned to 2026-12-01', async () => {
    const numbers = await stockText('PLAIN');
    const strings = await stockText('PLAIN', pinnedKey);

    expect(numbers.text).toMatch(written('totalOnHand', HUGE));
    expect(numbers.text).toMatch(written('qtyOnHand', HUGE));
    expect(strings.headers.get('wms-version')).toBe(DECIMALS);
    expect(strings.text).toMatch(written('totalOnHand', `"${HUGE}"`));
    expect(strings.text).toMatch(written('qtyAllocated', '"0.0000"'));
  });

  it('when a key pinned to 2026-12-01 reads the small quantity, it gets a four-place decimal string', async () => {
    const four = JSON.parse((await stockText('FOUR', pinnedKey)).text) as { data: Record<string, unknown> };

    expect(four.data).toMatchObject({ totalOnHand: '4.0000', totalAllocated: '0.0000', totalAvailable: '4.0000' });
  });

  it('when the subscription created with url and events receives asn.received, its quantities are numbers with their exact digits', async () => {
    const [plain] = await receiver.waitForRequests('/as-the-interface-says', 1);
    const [pinned] = await receiver.waitForRequests('/pinned', 1);

    expect(plain!.body).toMatch(written('receivedQty', HUGE));
    expect(plain!.body).toMatch(written('expectedQty', HUGE));
    expect(pinned!.body).toMatch(written('receivedQty', `"${HUGE}"`));
  });
});
