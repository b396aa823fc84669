import {
  createApiKey,
  createMasterData,
  createTenantWithWarehouse,
  createTestContext,
  defaultTenantId,
  request,
  type TestContext,
  type TestGateway,
} from '@wms/testing';

const BASE = '/api/v1/integration/v1';

describe('integration sales orders: create, bulk, duplicates, idempotency, tenants', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let key: string;
  let tenantId: string;

  beforeAll(async () => {
    ctx = await createTestContext('orders-routes');
    gateway = await ctx.startGateway();
    await ctx.startIngestWorker();
    tenantId = await defaultTenantId(ctx);
    key = (await createApiKey(ctx, { tenantId })).rawKey;
    await createMasterData(ctx, tenantId, {
      items: [{ sku: 'WIDGET' }, { sku: 'BOXED', baseUomCode: 'BOX' }],
      partners: [
        { code: 'CUST', type: 'customer' },
        { code: 'SUP', type: 'supplier' },
      ],
    });
  });
  afterAll(() => ctx.close());

  let reference = 0;
  const order = (extra: Record<string, unknown> = {}) => ({
    warehouseCode: 'MAIN',
    customerCode: 'CUST',
    requiredDate: '2030-03-01',
    priority: 5,
    shipTo: { name: 'Jane Doe', address: '1 Main St' },
    referenceNo: `SO-REF-${++reference}`,
    lines: [
      { lineNo: 1, sku: 'WIDGET', uomCode: 'EA', qtyOrdered: 3 },
      { lineNo: 2, sku: 'BOXED', uomCode: 'BOX', qtyOrdered: 1.5 },
    ],
    ...extra,
  });
  const post = (path: string, body: unknown, headers: Record<string, string> = {}, apiKey = key) =>
    request(gateway.url, 'POST', `${BASE}${path}`, { body, headers: { 'x-api-key': apiKey, ...headers } });
  const get = (path: string, apiKey = key) =>
    request(gateway.url, 'GET', `${BASE}${path}`, { headers: { 'x-api-key': apiKey } });

  it('when an order is created, it answers 201 with the order and its lines, equal to its inquiry', async () => {
    const created = await post('/orders', order({ referenceNo: 'ERP-1' }));

    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      orderNo: expect.stringMatching(/^SO-\d{8}-\d{6}$/),
      referenceNo: 'ERP-1',
      warehouseCode: 'MAIN',
      customerCode: 'CUST',
      requiredDate: '2030-03-01',
      priority: 5,
      shipTo: { name: 'Jane Doe', address: '1 Main St' },
      status: 'open',
      lines: [
        { lineNo: 1, sku: 'WIDGET', uomCode: 'EA', qtyOrdered: 3, qtyAllocated: 0, qtyPicked: 0, qtyShipped: 0 },
        { lineNo: 2, sku: 'BOXED', uomCode: 'BOX', qtyOrdered: 1.5, qtyAllocated: 0, qtyPicked: 0, qtyShipped: 0 },
      ],
      pickTasks: [],
      summary: { totalOrdered: 4.5, totalAllocated: 0, totalPicked: 0, totalShipped: 0 },
    });
    const inquiry = await get(`/orders/${created.body.data.orderNo}`);
    expect(inquiry.status).toBe(200);
    expect(inquiry.body.data).toEqual(created.body.data);
  });

  it.each([
    [
      'an unknown sku',
      { lines: [{ lineNo: 1, sku: 'NOPE', uomCode: 'EA', qtyOrdered: 1 }] },
      400,
      'REFERENCE_NOT_FOUND',
      'Item SKU NOPE not found',
    ],
    ['an unknown warehouse', { warehouseCode: 'NOWH' }, 400, 'REFERENCE_NOT_FOUND', 'Warehouse code NOWH not found'],
    ['an unknown customer', { customerCode: 'NOCUST' }, 400, 'REFERENCE_NOT_FOUND', 'Partner code NOCUST not found'],
    [
      'a supplier as customer',
      { customerCode: 'SUP' },
      400,
      'VALIDATION_FAILED',
      'Partner code SUP is a supplier, not a customer',
    ],
    [
      'a uomCode other than the base unit',
      { lines: [{ lineNo: 7, sku: 'BOXED', uomCode: 'EA', qtyOrdered: 1 }] },
      400,
      'VALIDATION_FAILED',
      'line 7: uomCode EA is not the base unit BOX of item SKU BOXED',
    ],
  ])('when an order names %s, it answers %s %s with a clear message', async (_case, change, status, code, message) => {
    const response = await post('/orders', order(change));

    expect(response.status).toBe(status);
    expect(response.body).toMatchObject({ status: 'error', code, message });
  });

  it('when an order has a bad quantity, an unknown field and no referenceNo, every problem is listed', async () => {
    const { referenceNo: _omitted, ...body } = order({
      lines: [{ lineNo: 1, sku: 'WIDGET', uomCode: 'EA', qtyOrdered: 0, color: 'red' }],
    });

    const response = await post('/orders', body);

    expect(response.status).toBe(400);
    expect(response.body.code).toBe('VALIDATION_FAILED');
    expect(response.body.details.map((detail) => detail.path).sort()).toEqual([
      'lines.0.color',
      'lines.0.qtyOrdered',
      'referenceNo',
    ]);
  });

  it('when two orders share a referenceNo, the second gets 409 DUPLICATE_REFERENCE naming the first', async () => {
    const first = await post('/orders', order({ referenceNo: 'ERP-DUP' }));

    const second = await post('/orders', order({ referenceNo: 'ERP-DUP' }));

    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({
      code: 'DUPLICATE_REFERENCE',
      message: `Order with referenceNo ERP-DUP already exists: ${first.body.data.orderNo}`,
    });
  });

  it('when two orders with one referenceNo are created at once, one gets 201 and the other 409', async () => {
    const responses = await Promise.all([
      post('/orders', order({ referenceNo: 'ERP-RACE' })),
      post('/orders', order({ referenceNo: 'ERP-RACE' })),
    ]);

    expect(responses.map((response) => response.status).sort()).toEqual([201, 409]);
    const [rows] = (await ctx.runtime.db.sequelize.query(
      `SELECT count(*)::int AS n FROM sales_orders WHERE reference_no = 'ERP-RACE'`,
    )) as [{ n: number }[], unknown];
    expect(rows[0]!.n).toBe(1);
  });

  it('when 50 orders are created at once, each gets its own number', async () => {
    const responses = await Promise.all(Array.from({ length: 50 }, () => post('/orders', order())));

    expect(responses.map((response) => response.status)).toEqual(Array(50).fill(201));
    expect(new Set(responses.map((response) => response.body.data.orderNo)).size).toBe(50);
  });

  it('when an order create is sent again with its Idempotency-Key, the first answer is replayed and one order exists', async () => {
    const body = order({ referenceNo: 'ERP-IDEM' });

    const first = await post('/orders', body, { 'Idempotency-Key': 'order-idem-1' });
    const replay = await post('/orders', body, { 'Idempotency-Key': 'order-idem-1' });

    expect(first.status).toBe(201);
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replay')).toBe('true');
    expect(replay.body).toEqual(first.body);
    const [rows] = (await ctx.runtime.db.sequelize.query(
      `SELECT count(*)::int AS n FROM sales_orders WHERE reference_no = 'ERP-IDEM'`,
    )) as [{ n: number }[], unknown];
    expect(rows[0]!.n).toBe(1);
  });

  it('when a bulk of orders has a bad line in one entry, it answers 207 and creates the others', async () => {
    const good1 = order({ referenceNo: 'BULK-1' });
    const bad = order({ referenceNo: 'BULK-2', lines: [{ lineNo: 1, sku: 'NOPE', uomCode: 'EA', qtyOrdered: 1 }] });
    const good2 = order({ referenceNo: 'BULK-3' });
    const repeated = order({ referenceNo: 'BULK-1' });

    const response = await post('/orders/bulk', { orders: [good1, bad, good2, repeated] });

    expect(response.status).toBe(207);
    expect(response.body).toMatchObject({ status: 'partial', total: 4, created: 2, updated: 0 });
    expect(response.body.data).toEqual([
      {
        index: 0,
        key: 'BULK-1',
        status: 'created',
        data: { id: expect.any(String), orderNo: expect.stringMatching(/^SO-/), referenceNo: 'BULK-1' },
      },
      { index: 1, key: 'BULK-2', status: 'error', error: 'Item SKU NOPE not found' },
      {
        index: 2,
        key: 'BULK-3',
        status: 'created',
        data: { id: expect.any(String), orderNo: expect.stringMatching(/^SO-/), referenceNo: 'BULK-3' },
      },
      {
        index: 3,
        key: 'BULK-1',
        status: 'error',
        error: `Order with referenceNo BULK-1 already exists: ${response.body.data[0].data.orderNo}`,
      },
    ]);
    expect((await get(`/orders/${response.body.data[2].data.orderNo}`)).body.data.lines).toHaveLength(2);
  });

  it('when a bulk of ASNs is posted under asns, it creates them; more than 100 entries is a 400', async () => {
    await createMasterData(ctx, tenantId, { items: [{ sku: 'INBOUND' }] });
    const asn = (referenceNo: string) => ({
      warehouseCode: 'MAIN',
      supplierCode: 'SUP',
      referenceNo,
      lines: [{ lineNo: 1, sku: 'INBOUND', uomCode: 'EA', expectedQty: 2 }],
    });

    const response = await post('/asn/bulk', { asns: [asn('ASN-BULK-1'), asn('ASN-BULK-2')] });
    const tooMany = await post('/asn/bulk', { asns: Array.from({ length: 101 }, (_, n) => asn(`ASN-MANY-${n}`)) });

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      status: 'success',
      created: 2,
      data: [
        { key: 'ASN-BULK-1', status: 'created' },
        { key: 'ASN-BULK-2', status: 'created' },
      ],
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.code).toBe('VALIDATION_FAILED');
  });

  it("when another tenant's key asks for this tenant's order or ASN it gets 404, for its item's stock 400 REFERENCE_NOT_FOUND", async () => {
    const other = await createTenantWithWarehouse(ctx, 'OTHER', 'MAIN');
    const otherKey = (await createApiKey(ctx, { tenantId: other.tenant.id })).rawKey;
    const orderNo = (await post('/orders', order())).body.data.orderNo;
    const asnNo = (await get('/asn?limit=1')).body.data[0].asnNo;

    const orderAnswer = await get(`/orders/${orderNo}`, otherKey);
    const asnAnswer = await get(`/asn/${asnNo}`, otherKey);
    const stockAnswer = await get('/stock?sku=WIDGET', otherKey);
    const cancelAnswer = await post(`/orders/${orderNo}/cancel`, undefined, {}, otherKey);
    const listAnswer = await get('/orders', otherKey);

    expect(orderAnswer.status).toBe(404);
    expect(orderAnswer.body).toMatchObject({ code: 'NOT_FOUND', message: `Order ${orderNo} not found` });
    expect(asnAnswer.status).toBe(404);
    expect(stockAnswer.status).toBe(400);
    expect(stockAnswer.body).toMatchObject({ code: 'REFERENCE_NOT_FOUND', message: 'Item SKU WIDGET not found' });
    expect(cancelAnswer.status).toBe(404);
    expect(listAnswer.body.data).toEqual([]);
  });

  it('when a cross-tenant key reads without tenantId it gets 400 TENANT_REQUIRED, and with it the order', async () => {
    const crossKey = (await createApiKey(ctx, {})).rawKey;
    const orderNo = (await post('/orders', order())).body.data.orderNo;

    const without = await get(`/orders/${orderNo}`, crossKey);
    const withTenant = await get(`/orders/${orderNo}?tenantId=${tenantId}`, crossKey);

    expect(without.status).toBe(400);
    expect(without.body).toMatchObject({ code: 'TENANT_REQUIRED', message: 'tenantId is required.' });
    expect(withTenant.status).toBe(200);
    expect(withTenant.body.data.orderNo).toBe(orderNo);
  });

  it('when orders are listed by status and updatedSince, only matching orders come, with a cursor for more', async () => {
    const since = new Date().toISOString();
    const a = (await post('/orders', order())).body.data.orderNo;
    const b = (await post('/orders', order())).body.data.orderNo;
    await post(`/orders/${a}/cancel`, undefined);

    const first = await get(`/orders?updatedSince=${since}&limit=1`);
    const second = await get(`/orders?updatedSince=${since}&limit=1&cursor=${first.body.nextCursor}`);
    const cancelled = await get(`/orders?updatedSince=${since}&status=cancelled`);

    expect(first.body).toMatchObject({
      status: 'success',
      data: [{ orderNo: b }],
      nextCursor: expect.any(String),
      requestId: expect.any(String),
    });
    expect(second.body).toMatchObject({ data: [{ orderNo: a }], nextCursor: null });
    expect(cancelled.body.data.map((row) => row.orderNo)).toEqual([a]);
  });

  it('when a key has only read scope, order creation is refused with 401 and inquiries work', async () => {
    const readKey = (await createApiKey(ctx, { tenantId, scopes: ['read'] })).rawKey;

    const created = await post('/orders', order(), {}, readKey);
    const listed = await get('/orders?limit=1', readKey);

    expect(created.status).toBe(401);
    expect(listed.status).toBe(200);
  });
});
