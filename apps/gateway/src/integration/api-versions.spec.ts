import { createWebhookDeliveryQueue } from '@wms/webhooks';
import {
  TEST_ADMIN,
  createApiKey,
  createMasterData,
  createSubscription,
  createTenantWithWarehouse,
  createTestContext,
  loginAs,
  relayOver,
  request,
  startTestWebhookWorker,
  startWebhookReceiver,
  verifyReceived,
  waitFor,
  type JsonNode,
  type TestContext,
  type TestGateway,
  type WebhookReceiver,
} from '@wms/testing';

const BASE = '/api/v1/integration/v1';
const OLD = '2026-11-21';
const NEW = '2026-12-01';
/** More digits than a float8 keeps in its shortest form past 10^11 with four decimals. */
const HUGE = '123456789012.3456';

describe('dated API versions (Wms-Version): a key, a request and a subscription each choose the shapes', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let receiver: WebhookReceiver;
  let tenantId: string;
  let oldKey: string;
  let newKey: string;
  let asnNo: string;
  let orderNo: string;
  const secrets: Record<string, string> = {};

  const call = (method: 'GET' | 'POST', path: string, key: string, body?: unknown, headers = {}) =>
    request(gateway.url, method, `${BASE}${path}`, { body, headers: { 'x-api-key': key, ...headers } });

  beforeAll(async () => {
    ctx = await createTestContext('api-versions', { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
    gateway = await ctx.startGateway();
    receiver = await startWebhookReceiver();
    ({
      tenant: { id: tenantId },
    } = await createTenantWithWarehouse(ctx));
    await createMasterData(ctx, tenantId, {
      items: [{ sku: 'PLAIN' }],
      partners: [
        { code: 'SUP', type: 'supplier' },
        { code: 'CUST', type: 'customer' },
      ],
      locations: [{ warehouseCode: 'WH1', code: 'A-01' }],
    });
    oldKey = (await createApiKey(ctx, { tenantId, apiVersion: OLD })).rawKey;
    newKey = (await createApiKey(ctx, { tenantId, apiVersion: NEW })).rawKey;
    for (const version of [OLD, NEW]) {
      const subscription = await createSubscription(ctx, {
        url: receiver.urlFor(`/${version}`),
        events: ['asn.received'],
        tenantId,
        apiVersion: version,
      });
      secrets[version] = subscription.secret;
    }

    // A quantity sent as a string, and one as a number: both are accepted.
    const asn = await call('POST', '/asn', newKey, {
      warehouseCode: 'WH1',
      supplierCode: 'SUP',
      expectedDate: '2030-01-15',
      referenceNo: 'PO-HUGE',
      lines: [{ lineNo: 1, sku: 'PLAIN', uomCode: 'EA', expectedQty: HUGE }],
    });
    expect(asn.status).toBe(201);
    asnNo = String(asn.body.data.asnNo);
    const grn = await call('POST', '/grn', newKey, {
      warehouseCode: 'WH1',
      asnNo,
      lines: [{ asnLineNo: 1, sku: 'PLAIN', uomCode: 'EA', qty: Number(HUGE), locationCode: 'A-01' }],
    });
    expect(grn.status).toBe(201);
    const order = await call('POST', '/orders', oldKey, {
      warehouseCode: 'WH1',
      customerCode: 'CUST',
      requiredDate: '2030-03-01',
      referenceNo: 'SO-1',
      shipTo: { name: 'Jane Doe', address: '1 Main St' },
      lines: [{ lineNo: 1, sku: 'PLAIN', uomCode: 'EA', qtyOrdered: '2.5' }],
    });
    expect(order.status).toBe(201);
    orderNo = String(order.body.data.orderNo);
  });
  afterAll(async () => {
    await receiver.close();
    await ctx.close();
  });

  it('when a key pinned to 2026-11-21 reads the stock, order and ASN inquiries, it gets numbers; one pinned to 2026-12-01 gets exact decimal strings', async () => {
    const read = async (path: string) => [
      (await call('GET', path, oldKey)).body,
      (await call('GET', path, newKey)).body,
    ];

    const [oldStock, newStock] = await read('/stock?sku=PLAIN');
    const [oldOrder, newOrder] = await read(`/orders/${orderNo}`);
    const [oldAsn, newAsn] = await read(`/asn/${asnNo}`);

    expect(oldStock.data).toMatchObject({ totalOnHand: Number(HUGE), totalAllocated: 0, totalAvailable: Number(HUGE) });
    expect(oldStock.data.stocks[0]).toMatchObject({ qtyOnHand: Number(HUGE), qtyAllocated: 0 });
    expect(newStock.data).toMatchObject({ totalOnHand: HUGE, totalAllocated: '0.0000', totalAvailable: HUGE });
    expect(newStock.data.stocks[0]).toMatchObject({ qtyOnHand: HUGE, qtyAllocated: '0.0000', qtyAvailable: HUGE });
    expect(oldOrder.data.lines[0]).toMatchObject({ qtyOrdered: 2.5, qtyAllocated: 0 });
    expect(oldOrder.data.summary).toMatchObject({ totalOrdered: 2.5 });
    expect(newOrder.data.lines[0]).toMatchObject({ qtyOrdered: '2.5000', qtyAllocated: '0.0000' });
    expect(newOrder.data.summary).toMatchObject({ totalOrdered: '2.5000', totalShipped: '0.0000' });
    expect(oldAsn.data.lines[0]).toMatchObject({ expectedQty: Number(HUGE), receivedQty: Number(HUGE) });
    expect(newAsn.data.lines[0]).toMatchObject({ expectedQty: HUGE, receivedQty: HUGE });
    expect(newAsn.data.grns[0].lines[0]).toMatchObject({ qty: HUGE });
    // Apart from quantities, the two versions answer the same documents.
    expect({ ...oldAsn.data, lines: [], grns: [] }).toEqual({ ...newAsn.data, lines: [], grns: [] });
  });

  it('when a key sends Wms-Version, that request is served in it, and every answer names its version', async () => {
    const overridden = await call('GET', '/stock?sku=PLAIN', oldKey, undefined, { 'Wms-Version': NEW });
    const pinned = await call('GET', '/stock?sku=PLAIN', oldKey);

    expect(overridden.headers.get('wms-version')).toBe(NEW);
    expect(overridden.body.data.totalOnHand).toBe(HUGE);
    expect(pinned.headers.get('wms-version')).toBe(OLD);
    expect(pinned.body.data.totalOnHand).toBe(Number(HUGE));
  });

  it('when a request names an unknown version, it answers 400 VALIDATION_FAILED listing the known ones', async () => {
    const response = await call('GET', '/stock?sku=PLAIN', newKey, undefined, { 'Wms-Version': '2025-01-01' });

    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({
      status: 'error',
      code: 'VALIDATION_FAILED',
      details: [{ path: 'Wms-Version', message: `must be one of ${OLD}, ${NEW}` }],
    });
  });

  it('when the deployment deprecates no version, no answer carries Deprecation, Sunset or Link, the oldest neither', async () => {
    const oldest = await call('GET', `/orders/${orderNo}`, oldKey);
    const newest = await call('GET', `/orders/${orderNo}`, newKey);

    for (const header of ['deprecation', 'sunset', 'link']) {
      expect(oldest.headers.get(header)).toBeNull();
      expect(newest.headers.get(header)).toBeNull();
    }
  });

  it('when the deployment deprecates 2026-11-21, its answers carry Deprecation, Sunset and Link and the changelog says so', async () => {
    const marked = await ctx.startGateway({
      API_DEFAULT_VERSION: NEW,
      API_DEPRECATED_VERSIONS: `${OLD}=2027-06-01/2029-06-01`,
    });
    try {
      const deprecated = await request(marked.url, 'GET', `${BASE}/orders/${orderNo}`, {
        headers: { 'x-api-key': oldKey },
      });
      const current = await request(marked.url, 'GET', `${BASE}/orders/${orderNo}`, {
        headers: { 'x-api-key': newKey },
      });
      const changelog = await fetch(`${marked.url}/docs/changelog`);

      expect(
        Object.fromEntries(['deprecation', 'sunset', 'link'].map((name) => [name, deprecated.headers.get(name)])),
      ).toEqual({
        deprecation: `@${Date.UTC(2027, 5, 1) / 1000}`,
        sunset: 'Fri, 01 Jun 2029 00:00:00 GMT',
        link: '</docs/changelog>; rel="deprecation"',
      });
      for (const header of ['deprecation', 'sunset', 'link']) expect(current.headers.get(header)).toBeNull();
      expect(await changelog.text()).toContain('Deprecated since 2027-06-01; supported until 2029-06-01.');
    } finally {
      await marked.close();
    }
  });

  it('when the lists and bulk job results are read, quantities follow the version and the rest is the same', async () => {
    await ctx.startIngestWorker();
    const [oldList, newList] = [await call('GET', '/orders', oldKey), await call('GET', '/orders', newKey)];
    const bulk = { items: [{ sku: 'BULK-1', name: 'Bulk one', baseUomCode: 'EA' }] };
    const [oldBulk, newBulk] = [
      await call('POST', '/items/bulk', oldKey, bulk),
      await call('POST', '/items/bulk', newKey, { items: [{ ...bulk.items[0], sku: 'BULK-2' }] }),
    ];

    expect(newList.body.data).toEqual(oldList.body.data);
    expect(oldBulk.status).toBe(200);
    expect(oldBulk.headers.get('wms-version')).toBe(OLD);
    expect(newBulk.headers.get('wms-version')).toBe(NEW);
    const { requestId: _a, data: oldEntries, ...oldRest } = oldBulk.body;
    const { requestId: _b, data: newEntries, ...newRest } = newBulk.body;
    expect(newRest).toEqual(oldRest);
    expect((newEntries as unknown as JsonNode[]).map((entry) => Object.keys(entry))).toEqual(
      (oldEntries as unknown as JsonNode[]).map((entry) => Object.keys(entry)),
    );
  });

  it("when the stock's movements and a snapshot file are read, the huge quantity is exact under 2026-12-01 and a number under 2026-11-21", async () => {
    const movement = async (key: string) =>
      ((await call('GET', '/stock/movements?sku=PLAIN&cause=grn', key)).body.data as unknown as JsonNode[])[0]!;
    expect(await movement(newKey)).toMatchObject({
      qtyOnHandDelta: HUGE,
      qtyOnHandAfter: HUGE,
      qtyAllocatedAfter: '0.0000',
    });
    expect(await movement(oldKey)).toMatchObject({ qtyOnHandDelta: Number(HUGE), qtyOnHandAfter: Number(HUGE) });
    const oldMovements = await fetch(`${gateway.url}${BASE}/stock/movements?sku=PLAIN&cause=grn`, {
      headers: { 'x-api-key': oldKey },
    });
    expect(await oldMovements.text()).toContain(`"qtyOnHandAfter":${HUGE},`);

    // The ingest worker the test before started writes the file; each key reads its own snapshot.
    const fileLine = async (key: string) => {
      const accepted = await call('POST', '/stock/snapshots', key, {});
      expect(accepted.status).toBe(202);
      const jobId = String(accepted.body.jobId);
      await waitFor(
        async () => String((await call('GET', `/jobs/${jobId}`, key)).body.data?.state) === 'completed',
        20_000,
        'the snapshot to be written',
      );
      const file = await fetch(`${gateway.url}${BASE}/jobs/${jobId}/file`, { headers: { 'x-api-key': key } });
      return (await file.text()).trimEnd();
    };
    const newLine = await fileLine(newKey);
    const oldLine = await fileLine(oldKey);
    expect(JSON.parse(newLine)).toMatchObject({ qtyOnHand: HUGE, qtyAllocated: '0.0000', qtyAvailable: HUGE });
    expect(newLine).toContain(`"${HUGE}"`);
    expect(JSON.parse(oldLine)).toMatchObject({ qtyOnHand: Number(HUGE), qtyAllocated: 0, qtyAvailable: Number(HUGE) });
    expect(oldLine).not.toContain(`"${HUGE}"`);
    expect(oldLine).toMatch(new RegExp(`"qtyOnHand"\\s*:\\s*${HUGE.replace('.', '\\.')}\\s*,`));
  });

  it('when events are relayed, the feed and each subscription get the version they are on, signed over the body received, the huge quantity exact', async () => {
    const queue = createWebhookDeliveryQueue(ctx.runtime.redis, ctx.config.redisKeyPrefix, 3);
    await relayOver(ctx, queue).fanOut();
    await queue.close();
    startTestWebhookWorker(ctx);

    const [oldDelivery] = await receiver.waitForRequests(`/${OLD}`, 1);
    const [newDelivery] = await receiver.waitForRequests(`/${NEW}`, 1);
    const oldFeed = await call('GET', '/events', oldKey);
    const newFeed = await call('GET', '/events', newKey);

    expect(verifyReceived(oldDelivery!, secrets[OLD]!)).toBe(true);
    expect(verifyReceived(newDelivery!, secrets[NEW]!)).toBe(true);
    expect(newDelivery!.body).toContain(`"receivedQty":"${HUGE}"`);
    expect(oldDelivery!.body).toContain(`"receivedQty":${HUGE}`);
    const received = (feed: JsonNode) =>
      (feed.data as unknown as JsonNode[]).find((event) => String(event.event) === 'asn.received')!;
    expect(received(newFeed.body).data.lines[0].receivedQty).toBe(HUGE);
    expect(received(oldFeed.body).data.lines[0].receivedQty).toBe(Number(HUGE));
  });

  it('when a key calls a known number of times in each version, its stats count the calls per version exactly', async () => {
    const key = await createApiKey(ctx, { tenantId, apiVersion: OLD });
    for (let i = 0; i < 3; i++) await call('GET', '/stock?sku=PLAIN', key.rawKey);
    for (let i = 0; i < 2; i++) await call('GET', '/stock?sku=PLAIN', key.rawKey, undefined, { 'Wms-Version': NEW });
    await gateway.flushRequestLog();
    const token = await loginAs(gateway.url, TEST_ADMIN.email, TEST_ADMIN.password);

    const stats = await request(gateway.url, 'GET', `/api/v1/api-keys/${key.id}/stats`, { token });

    expect(stats.body.requestsByVersion).toEqual({ [OLD]: 3, [NEW]: 2 });
  });

  it('when the OpenAPI document is asked for a version, it documents that version; an unknown one is 400', async () => {
    const document = (version: string) => request(gateway.url, 'GET', `${BASE}/openapi.json?version=${version}`);

    const [old, current, unknown] = [await document(OLD), await document(NEW), await document('1999-01-01')];

    expect(old.body.info).toMatchObject({ 'x-api-version': OLD });
    expect(current.body.info).toMatchObject({ 'x-api-version': NEW });
    expect(JSON.stringify(current.body.webhooks)).toContain('"pattern":"^-?\\\\d+\\\\.\\\\d{4}$"');
    expect(JSON.stringify(old.body.webhooks)).not.toContain('\\\\d{4}$');
    expect(unknown.status).toBe(400);
  });

  it("when an admin creates a key without apiVersion it is pinned to the deployment's default; an admin may move it, audited", async () => {
    const token = await loginAs(gateway.url, TEST_ADMIN.email, TEST_ADMIN.password);

    const created = await request(gateway.url, 'POST', '/api/v1/api-keys', {
      token,
      body: { name: 'versioned', scopes: ['read'], tenantId },
    });
    const moved = await request(gateway.url, 'PATCH', `/api/v1/api-keys/${created.body.id}`, {
      token,
      body: { apiVersion: NEW },
    });
    const unknown = await request(gateway.url, 'PATCH', `/api/v1/api-keys/${created.body.id}`, {
      token,
      body: { apiVersion: '2020-01-01' },
    });
    const audit = await request(gateway.url, 'GET', `/api/v1/audit-logs?entityId=${created.body.id}`, { token });

    expect(created.body.apiVersion).toBe(OLD);
    expect(moved.body.apiVersion).toBe(NEW);
    expect(unknown.status).toBe(400);
    expect(JSON.stringify(unknown.body)).toContain(`${OLD}, ${NEW}`);
    expect(JSON.stringify(audit.body)).toContain('apiVersion');
  });
});
