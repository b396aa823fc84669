import { createWebhookDeliveryQueue, type WebhookDeliveryQueue } from '@wms/webhooks';
import { API_VERSIONS } from '@wms/platform';
import {
  arrangeTradingPartner,
  order940,
  x12Interchange,
  answerSchemaProblems,
  answerValidator,
  createApiKey,
  createSandboxTenant,
  createTestContext,
  relayOver,
  request,
  waitFor,
  type Answer,
  type JsonNode,
  type OpenApiDocument,
  type TestContext,
  type TestGateway,
} from '@wms/testing';
import { integrationOpenApiDocument } from './docs.routes.js';

const BASE = '/api/v1/integration/v1';

/** Every operation of the document, as `METHOD /path`: the route table's routes, one by one. */
/** The event types' schemas are JSON Schema documents themselves: free-form by nature. */
const JSON_SCHEMAS = new Set(['dataSchema', 'bodySchema']);

const OPERATIONS = Object.entries((integrationOpenApiDocument() as unknown as OpenApiDocument).paths).flatMap(
  ([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
);

/**
 * Every route of the integration API, called with real data under each dated version, and each real answer
 * (status, media type, body) checked against the schema the version's OpenAPI document declares for it, by ajv
 * in strict mode. A route of the table without a call here fails: a new route ships with a typed answer.
 */
describe('the integration API answers exactly what its OpenAPI documents declare, under each version', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let queue: WebhookDeliveryQueue;
  let key: string;
  /** A key whose IP whitelist leaves this machine out: the guard refuses it (403). */
  let fencedKey: string;
  let tenantId: string;
  /** The answers of the import cancel, taken before a worker could start the import (see beforeAll). */
  const cancelled = new Map<string, Answer>();
  const documents = new Map<string, OpenApiDocument>();
  let serial = 0;

  beforeAll(async () => {
    ctx = await createTestContext('typed-answers');
    gateway = await ctx.startGateway();
    queue = createWebhookDeliveryQueue(ctx.runtime.redis, ctx.config.redisKeyPrefix, 3);
    const { tenant } = await createSandboxTenant(ctx);
    tenantId = tenant.id;
    key = (await createApiKey(ctx, { tenantId: tenant.id })).rawKey;
    fencedKey = (await createApiKey(ctx, { tenantId: tenant.id, ipWhitelist: ['192.0.2.10'] })).rawKey;
    for (const version of API_VERSIONS) {
      const served = await request(gateway.url, 'GET', `${BASE}/openapi.json?version=${version}`);
      documents.set(version, served.body as unknown as OpenApiDocument);
    }
    // An import is cancelled while it is still queued: no ingest worker runs yet to start it.
    for (const version of API_VERSIONS) {
      const accepted = await upload(version, 'items', `${JSON.stringify(itemBody(`QUEUED-${version}`))}\n`);
      cancelled.set(version, await call(version, 'DELETE', `/jobs/${String(accepted.body.jobId)}`));
    }
    await ctx.startIngestWorker();
    await call(API_VERSIONS[0]!, 'POST', '/partners', { code: 'CUST', name: 'Customer', type: 'customer' });
    await call(API_VERSIONS[0]!, 'POST', '/partners', { code: 'SUP', name: 'Supplier', type: 'supplier' });
  }, 60_000);
  afterAll(async () => {
    await queue.close();
    await ctx.close();
  });

  /** One call as it went: JSON bodies parsed, anything else (a file) kept as its text. */
  async function call(version: string, method: string, path: string, body?: unknown, headers = {}): Promise<Answer> {
    const response = await fetch(`${gateway.url}${BASE}${path}`, {
      method,
      headers: {
        'x-api-key': key,
        'wms-version': version,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return answerOf(method, path, response);
  }

  async function answerOf(method: string, path: string, response: Response): Promise<Answer> {
    const mediaType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim();
    const text = await response.text();
    const body: unknown = mediaType === 'application/json' ? JSON.parse(text) : text;
    return { method, path, status: response.status, mediaType, body };
  }
  const post = (version: string, path: string, body?: unknown, headers = {}) =>
    call(version, 'POST', path, body, headers);
  const get = (version: string, path: string) => call(version, 'GET', path);

  async function upload(version: string, entity: string, lines: string): Promise<Answer & { body: JsonNode }> {
    const response = await fetch(`${gateway.url}${BASE}/imports?entity=${entity}`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'wms-version': version, 'content-type': 'application/x-ndjson' },
      body: lines,
    });
    return (await answerOf('POST', '/imports', response)) as Answer & { body: JsonNode };
  }

  /** POST /edi as a key bound to a trading partner of the spec's tenant: a 940 of one order of `sku`. */
  let ediKey: { key: string; partner: Awaited<ReturnType<typeof arrangeTradingPartner>> } | null = null;
  async function sendEdi(version: string, sku: string): Promise<Answer & { interchangeId: string }> {
    if (!ediKey) {
      const created = await createApiKey(ctx, { tenantId });
      const partner = await arrangeTradingPartner(ctx, { tenantId, apiKeyId: created.id, warehouseCode: 'WH1' });
      ediKey = { key: created.rawKey, partner };
    }
    const { partner } = ediKey;
    const control = String(++serial);
    const text = x12Interchange({
      sender: { qualifier: partner.partner.qualifier, id: partner.partner.id, groupCode: partner.partner.groupCode },
      receiver: { qualifier: partner.us.qualifier, id: partner.us.id, groupCode: partner.us.groupCode },
      control,
      groups: [
        {
          functionalId: 'OW',
          control,
          sets: [
            {
              code: '940',
              control: '0001',
              segments: order940({ referenceNo: unique('EDI'), customerCode: 'CUST', lines: [{ sku, qty: 1 }] }),
            },
          ],
        },
      ],
    });
    const response = await fetch(`${gateway.url}${BASE}/edi`, {
      method: 'POST',
      headers: { 'x-api-key': ediKey.key, 'wms-version': version, 'content-type': 'application/edi-x12' },
      body: text,
    });
    const interchangeId = response.headers.get('x-interchange-id') ?? '';
    const answer = await answerOf('POST', '/edi', response);
    return {
      ...answer,
      interchangeId: interchangeId || String((answer.body as { interchangeId?: string }).interchangeId),
    };
  }

  /** A name of its own for each thing a call makes. */
  const unique = (prefix: string) => `${prefix}-${++serial}`;
  const itemBody = (sku: string, tracking = 'none') => ({ sku, name: `Item ${sku}`, baseUomCode: 'EA', tracking });

  async function ok(answer: Answer | Promise<Answer>): Promise<JsonNode> {
    const settled = await answer;
    if (settled.status >= 300) throw new Error(`${settled.method} ${settled.path}: ${JSON.stringify(settled)}`);
    return settled.body as JsonNode;
  }

  async function stockedItem(version: string, qty = 20): Promise<string> {
    const sku = unique(`SKU-${version}`);
    await ok(post(version, '/items', itemBody(sku)));
    await ok(post(version, '/grn', { warehouseCode: 'WH1', lines: [{ sku, uomCode: 'EA', qty }] }));
    return sku;
  }

  const orderBody = (sku: string, qtyOrdered = 2) => ({
    warehouseCode: 'WH1',
    customerCode: 'CUST',
    requiredDate: '2030-03-01',
    shipTo: { name: 'Jane Doe', address: '1 Main St' },
    referenceNo: unique('SO-REF'),
    lines: [{ lineNo: 1, sku, uomCode: 'EA', qtyOrdered }],
  });

  async function shippedOrder(version: string): Promise<{ orderNo: string; sku: string }> {
    const sku = await stockedItem(version);
    const created = await ok(post(version, '/orders', orderBody(sku)));
    const orderNo = String(created.data.orderNo);
    await ok(post(version, '/simulations', { type: 'order.shipped', orderNo, carrier: 'DHL', trackingNo: 'T-1' }));
    return { orderNo, sku };
  }

  async function openReturn(version: string): Promise<string> {
    const { orderNo, sku } = await shippedOrder(version);
    const rmaNo = unique('RMA');
    await ok(post(version, '/returns', { rmaNo, orderNo, lines: [{ sku, qty: 1, reason: 'too small' }] }));
    return rmaNo;
  }

  const asnBody = (sku: string, lotSku: string) => ({
    warehouseCode: 'WH1',
    supplierCode: 'SUP',
    expectedDate: '2030-02-01',
    referenceNo: unique('ASN-REF'),
    lines: [
      { lineNo: 1, sku, uomCode: 'EA', expectedQty: 5 },
      { lineNo: 2, sku: lotSku, uomCode: 'EA', expectedQty: 2.5, lotNo: 'LOT-1', expiryDate: '2031-01-31' },
    ],
  });

  async function receivedAsn(version: string): Promise<string> {
    const sku = unique('ASN-SKU');
    const lotSku = unique('ASN-LOT');
    await ok(post(version, '/items', itemBody(sku)));
    await ok(post(version, '/items', itemBody(lotSku, 'lot')));
    const asnNo = String((await ok(post(version, '/asn', asnBody(sku, lotSku)))).data.asnNo);
    await ok(
      post(version, '/grn', { asnNo, warehouseCode: 'WH1', lines: [{ asnLineNo: 1, sku, uomCode: 'EA', qty: 2 }] }),
    );
    return asnNo;
  }

  async function finishedJob(version: string, jobId: string): Promise<Answer> {
    return waitFor(
      () => get(version, `/jobs/${jobId}`),
      (answer) => ['completed', 'failed', 'cancelled'].includes(String((answer.body as JsonNode)?.data?.state)),
      30_000,
      `job ${jobId} to finish`,
    );
  }

  /** What each operation is called with: its answers, success and the refusals a caller meets first. */
  const CALLS: Record<string, (version: string) => Promise<Answer[]>> = {
    'POST /items': async (v) => [
      await post(v, '/items', itemBody(unique('ITEM'))),
      await post(v, '/items', { sku: 'NO-NAME', baseUomCode: 'EA' }),
      await post(v, '/items', itemBody(unique('ITEM')), { 'x-api-key': 'wms_not_a_key' }),
    ],
    'POST /items/bulk': async (v) => [
      await post(v, '/items/bulk', { items: [itemBody(unique('BULK')), { sku: 'NO-NAME' }] }),
      await post(v, '/items/bulk', { items: [itemBody(unique('BULK'))] }),
    ],
    'POST /partners': async (v) => [await post(v, '/partners', { code: unique('P'), name: 'P', type: 'carrier' })],
    'POST /partners/bulk': async (v) => [
      await post(v, '/partners/bulk', { partners: [{ code: unique('P'), name: 'P', type: 'customer' }] }),
    ],
    'POST /locations': async (v) => [
      await post(v, '/locations', { warehouseCode: 'WH1', code: unique('LOC'), zone: 'A', pickFace: true }),
    ],
    'POST /locations/bulk': async (v) => [
      await post(v, '/locations/bulk', { locations: [{ warehouseCode: 'WH1', code: unique('LOC') }] }),
    ],
    'GET /items': async (v) => {
      const sku = await stockedItem(v);
      return [
        await get(v, '/items?limit=2'),
        await get(v, `/items?sku=${sku}&sku=NOPE`),
        await get(v, '/items?updatedSince=0000-01-01T00:00:00Z'),
      ];
    },
    'GET /items/{sku}': async (v) => [await get(v, `/items/${await stockedItem(v)}`), await get(v, '/items/NOPE')],
    'GET /partners': async (v) => {
      await ok(post(v, '/partners', { code: unique('P'), name: 'P', type: 'supplier', contact: { phone: '1' } }));
      return [await get(v, '/partners?limit=2'), await get(v, '/partners?code=CUST')];
    },
    'GET /locations': async (v) => {
      await ok(post(v, '/locations', { warehouseCode: 'WH1', code: unique('LOC'), zone: 'A', pickFace: true }));
      return [await get(v, '/locations?warehouseCode=WH1&limit=2'), await get(v, '/locations?warehouseCode=NOPE')];
    },
    'GET /stock/levels': async (v) => {
      const sku = await stockedItem(v, 123456789012.3456);
      const idle = unique('IDLE');
      await ok(post(v, '/items', itemBody(idle)));
      return [
        await get(v, `/stock/levels?sku=${sku}&sku=${idle}&warehouseCode=WH1`),
        await get(v, '/stock/levels?sku=NOPE'),
      ];
    },
    'POST /asn': async (v) => {
      const sku = await stockedItem(v);
      const lotSku = unique('LOT');
      await ok(post(v, '/items', itemBody(lotSku, 'lot')));
      return [await post(v, '/asn', asnBody(sku, lotSku)), await post(v, '/asn', { warehouseCode: 'WH1' })];
    },
    'POST /asn/bulk': async (v) => {
      const sku = await stockedItem(v);
      const lotSku = unique('LOT');
      await ok(post(v, '/items', itemBody(lotSku, 'lot')));
      return [await post(v, '/asn/bulk', { asns: [asnBody(sku, lotSku), { referenceNo: 'BAD' }] })];
    },
    'GET /asn/{asnNo}': async (v) => [await get(v, `/asn/${await receivedAsn(v)}`), await get(v, '/asn/NOPE')],
    'GET /asn': async (v) => {
      await receivedAsn(v);
      return [await get(v, '/asn?limit=2'), await get(v, '/asn?cursor=nonsense')];
    },
    'POST /grn': async (v) => {
      const asnNo = await receivedAsn(v);
      const asn = await ok(get(v, `/asn/${asnNo}`));
      const lotSku = String(asn.data.lines[1].sku);
      return [
        await post(v, '/grn', {
          asnNo,
          warehouseCode: 'WH1',
          lines: [{ asnLineNo: 2, sku: lotSku, uomCode: 'EA', qty: 2.5, lotNo: 'LOT-1', expiryDate: '2031-01-31' }],
        }),
        await post(v, '/grn', { warehouseCode: 'WH1', lines: [{ sku: await stockedItem(v), uomCode: 'EA', qty: 1 }] }),
        await post(v, '/grn', { warehouseCode: 'WH1', lines: [{ sku: 'NOPE', uomCode: 'EA', qty: 1 }] }),
      ];
    },
    'POST /orders': async (v) => [await post(v, '/orders', orderBody(await stockedItem(v)))],
    'POST /orders/bulk': async (v) => [await post(v, '/orders/bulk', { orders: [orderBody(await stockedItem(v))] })],
    'GET /orders/{orderNo}': async (v) => [
      await get(v, `/orders/${(await shippedOrder(v)).orderNo}`),
      await get(v, '/orders/NOPE'),
      await call(v, 'GET', '/orders/NOPE', undefined, { 'x-api-key': fencedKey }),
    ],
    'GET /orders': async (v) => {
      await shippedOrder(v);
      return [await get(v, '/orders?limit=3'), await get(v, '/orders?status=shipped')];
    },
    'POST /orders/{orderNo}/cancel': async (v) => {
      const created = await ok(post(v, '/orders', orderBody(await stockedItem(v))));
      const orderNo = String(created.data.orderNo);
      return [await post(v, `/orders/${orderNo}/cancel`, {}), await post(v, `/orders/${orderNo}/cancel`, {})];
    },
    'POST /returns': async (v) => {
      const { orderNo, sku } = await shippedOrder(v);
      return [await post(v, '/returns', { rmaNo: unique('RMA'), orderNo, lines: [{ sku, qty: 1 }] })];
    },
    'POST /returns/bulk': async (v) => {
      const { orderNo, sku } = await shippedOrder(v);
      return [
        await post(v, '/returns/bulk', { returns: [{ rmaNo: unique('RMA'), orderNo, lines: [{ sku, qty: 1 }] }] }),
      ];
    },
    'GET /returns/{rmaNo}': async (v) => {
      const rmaNo = await openReturn(v);
      await ok(post(v, '/simulations', { type: 'return.received', rmaNo }));
      return [await get(v, `/returns/${rmaNo}`), await get(v, '/returns/NOPE')];
    },
    'GET /returns': async (v) => {
      await openReturn(v);
      return [await get(v, '/returns?limit=2')];
    },
    'GET /stock': async (v) => {
      const asnNo = await receivedAsn(v);
      const asn = await ok(get(v, `/asn/${asnNo}`));
      return [
        await get(v, `/stock?sku=${String(asn.data.lines[0].sku)}`),
        await get(v, `/stock?sku=${await stockedItem(v, 123456789012.3456)}`),
        await get(v, '/stock?sku=NOPE'),
        await call(v, 'GET', '/stock?sku=NOPE', undefined, { 'x-api-key': '' }),
      ];
    },
    'GET /stock/movements': async (v) => {
      const { sku } = await shippedOrder(v);
      return [await get(v, `/stock/movements?sku=${sku}`), await get(v, '/stock/movements?limit=2')];
    },
    'GET /events': async (v) => {
      await shippedOrder(v);
      const rmaNo = await openReturn(v);
      await ok(post(v, '/simulations', { type: 'return.received', rmaNo }));
      const sku = await stockedItem(v);
      await ok(post(v, '/simulations', { type: 'cyclecount.variance', sku, countedQty: 7 }));
      await ok(post(v, '/simulations', { type: 'asn.received', asnNo: await receivedAsn(v) }));
      await relayOver(ctx, queue).fanOut();
      return [await get(v, '/events?limit=500')];
    },
    'GET /event-types': async (v) => [
      await get(v, '/event-types'),
      await call(v, 'GET', '/event-types', undefined, { 'x-api-key': '' }),
    ],
    'POST /simulations': async (v) => {
      const sku = await stockedItem(v);
      return [
        await post(v, '/simulations', { type: 'stock.adjusted', sku, qtyDelta: 3, reason: 'found' }),
        await post(v, '/simulations', { type: 'cyclecount.variance', sku, countedQty: 1 }),
        await post(v, '/simulations', { type: 'order.shipped', orderNo: 'NOPE' }),
      ];
    },
    'POST /stock/snapshots': async (v) => [await post(v, '/stock/snapshots', {})],
    'GET /jobs/{jobId}/file': async (v) => {
      await stockedItem(v);
      const accepted = await ok(post(v, '/stock/snapshots', { warehouseCode: 'WH1' }));
      await finishedJob(v, String(accepted.jobId));
      return [await get(v, `/jobs/${String(accepted.jobId)}/file`)];
    },
    'GET /jobs/{jobId}': async (v) => {
      const bulk = await ok(
        post(v, '/items/bulk', { items: [itemBody(unique('ASYNC'))] }, { prefer: 'respond-async' }),
      );
      const snapshot = await ok(post(v, '/stock/snapshots', {}));
      const imported = await upload(v, 'items', `${JSON.stringify(itemBody(unique('IMP')))}\n`);
      return [
        await finishedJob(v, String(bulk.jobId)),
        await finishedJob(v, String(snapshot.jobId)),
        await finishedJob(v, String(imported.body.jobId)),
        await get(v, '/jobs/nope'),
      ];
    },
    'POST /imports': async (v) => [
      await upload(v, 'items', `${JSON.stringify(itemBody(unique('IMP')))}\n`),
      await upload(v, 'nothing', '{}\n'),
    ],
    'GET /jobs/{jobId}/errors': async (v) => {
      const accepted = await upload(v, 'items', `${JSON.stringify(itemBody(unique('IMP')))}\n{"sku":"NO-NAME"}\n`);
      await finishedJob(v, String(accepted.body.jobId));
      return [await get(v, `/jobs/${String(accepted.body.jobId)}/errors`)];
    },
    'DELETE /jobs/{jobId}': async (v) => [cancelled.get(v)!, await call(v, 'DELETE', '/jobs/import-nope')],
    'POST /edi': async (v) => [
      await sendEdi(v, await stockedItem(v)),
      await call(v, 'POST', '/edi', {}),
      await post(v, '/edi', undefined, { 'content-type': 'application/edi-x12' }),
    ],
    'GET /edi/interchanges/{interchangeId}': async (v) => {
      const sent = await sendEdi(v, await stockedItem(v));
      const response = await fetch(`${gateway.url}${BASE}/edi/interchanges/${sent.interchangeId}`, {
        headers: { 'x-api-key': ediKey!.key, 'wms-version': v },
      });
      return [
        await get(v, '/edi/interchanges/00000000-0000-0000-0000-000000000000'),
        await answerOf('GET', '/edi/interchanges/{interchangeId}', response),
      ];
    },
  };

  it('lists the properties and types of every answer object, open only where the body is free-form', () => {
    for (const version of API_VERSIONS) expect(answerSchemaProblems(documents.get(version)!, JSON_SCHEMAS)).toEqual([]);
  });

  it('refuses an answer with a field its schema does not declare, without one it requires, or in the other version', async () => {
    const [numbers, decimals] = API_VERSIONS as [string, string];
    const answer = await get(numbers, `/orders/${(await shippedOrder(numbers)).orderNo}`);
    const body = answer.body as JsonNode;
    const { orderNo: _left, ...withoutOrderNo } = body.data as Record<string, unknown>;
    const check = answerValidator(documents.get(numbers)!);

    expect(check('GET /orders/{orderNo}', answer)).toEqual([]);
    expect(
      check('GET /orders/{orderNo}', { ...answer, body: { ...body, data: { ...body.data, extra: 1 } } }),
    ).not.toEqual([]);
    expect(check('GET /orders/{orderNo}', { ...answer, body: { ...body, data: withoutOrderNo } })).not.toEqual([]);
    expect(check('GET /orders/{orderNo}', { ...answer, status: 418 })).not.toEqual([]);
    expect(answerValidator(documents.get(decimals)!)('GET /orders/{orderNo}', answer)).not.toEqual([]);
  });

  it.each(OPERATIONS)(
    '%s answers, under each version, what its document declares',
    async (operation) => {
      const calls = CALLS[operation];
      if (!calls) throw new Error(`${operation} has no call in this spec: give its answers real data and a schema`);

      for (const version of API_VERSIONS) {
        const check = answerValidator(documents.get(version)!);
        const answers = await calls(version);

        expect(answers.flatMap((answer) => check(operation, answer))).toEqual([]);
      }
    },
    60_000,
  );
});
