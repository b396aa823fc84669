import {
  createApiKey,
  createMasterData,
  createTestContext,
  defaultTenantId,
  loginAs,
  request,
  TEST_ADMIN,
  type TestContext,
  type TestGateway,
} from '@wms/testing';

const BASE = '/api/v1/integration/v1';
const NUL = '\u0000';
const LONE_SURROGATE = '\ud800';

const item = (sku: string, extra: Record<string, unknown> = {}) => ({
  sku,
  name: `Item ${sku}`,
  baseUomCode: 'EA',
  ...extra,
});
const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

describe('hostile input is refused with a 4xx, never a 5xx', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let key: string;
  let token: string;

  beforeAll(async () => {
    ctx = await createTestContext('hostile-input');
    gateway = await ctx.startGateway();
    await ctx.startIngestWorker();
    const tenantId = await defaultTenantId(ctx);
    key = (await createApiKey(ctx, { tenantId })).rawKey;
    token = await loginAs(gateway.url, TEST_ADMIN.email, TEST_ADMIN.password);
    await createMasterData(ctx, tenantId, {
      items: [{ sku: 'PLAIN' }],
      partners: [
        { code: 'SUP', type: 'supplier' },
        { code: 'CUST', type: 'customer' },
      ],
    });
  });
  afterAll(() => ctx.close());

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    request(gateway.url, 'POST', `${BASE}${path}`, { body, headers: { 'x-api-key': key, ...headers } });
  const postRaw = (path: string, rawBody: string, headers: Record<string, string> = {}) =>
    request(gateway.url, 'POST', path, { rawBody, headers });

  async function count(table: string): Promise<number> {
    const [rows] = (await ctx.runtime.db.sequelize.query(`SELECT count(*)::int AS n FROM ${table}`)) as [
      { n: number }[],
      unknown,
    ];
    return rows[0]!.n;
  }

  const order = (referenceNo: string, extra: Record<string, unknown> = {}) => ({
    warehouseCode: 'MAIN',
    customerCode: 'CUST',
    referenceNo,
    lines: [{ lineNo: 1, sku: 'PLAIN', uomCode: 'EA', qtyOrdered: 1 }],
    ...extra,
  });

  it.each([
    ['a NUL in an item name', '/items', item('NUL-1', { name: `Bolt${NUL}` }), 'name'],
    ['a lone surrogate in an item sku', '/items', item(`S${LONE_SURROGATE}`), 'sku'],
    [
      'a NUL in a partner contact',
      '/partners',
      { code: 'P1', name: 'P', type: 'supplier', contact: { name: NUL } },
      'contact.name',
    ],
    ['a lone surrogate in an order reference', '/orders', order(`R${'\udc00'}`), 'referenceNo'],
    [
      'a NUL in an order line sku',
      '/orders',
      order('R-NUL', { lines: [{ lineNo: 1, sku: NUL, uomCode: 'EA', qtyOrdered: 1 }] }),
      'lines.0.sku',
    ],
    ['shelfLifeDays of 1e10', '/items', item('BIG-1', { shelfLifeDays: 1e10 }), 'shelfLifeDays'],
    ['weightKg of 1e300', '/items', item('BIG-2', { weightKg: 1e300 }), 'weightKg'],
  ])(
    'when a single write carries %s, it answers 400 VALIDATION_FAILED naming the field',
    async (_case, path, body, field) => {
      const before = (await count('items')) + (await count('sales_orders')) + (await count('partners'));

      const response = await post(path, body);

      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ status: 'error', code: 'VALIDATION_FAILED' });
      expect(response.body.details.map((detail) => String(detail.path))).toContain(field);
      expect((await count('items')) + (await count('sales_orders')) + (await count('partners'))).toBe(before);
    },
  );

  it('when a bulk carries unstorable text and out-of-range numbers, those entries are entry errors of a 207', async () => {
    const response = await post('/items/bulk', {
      items: [
        item('BULK-OK'),
        item('BULK-NUL', { name: `x${NUL}` }),
        item(`BULK-${LONE_SURROGATE}`),
        item('BULK-BIG', { shelfLifeDays: 1e10 }),
        item('BULK-FAST', { category: `c${NUL}` }),
      ],
    });

    expect(response.status).toBe(207);
    expect(response.body).toMatchObject({ status: 'partial', total: 5, created: 1 });
    expect(response.body.errors.map((error) => Number(error.index))).toEqual([1, 2, 3, 4]);
    expect(await count(`items WHERE sku LIKE 'BULK-%'`)).toBe(1);
  });

  it('when an order bulk carries a NUL in a line, only that order is an entry error', async () => {
    const response = await post('/orders/bulk', {
      orders: [order('B-OK'), order('B-NUL', { lines: [{ lineNo: 1, sku: `P${NUL}`, uomCode: 'EA', qtyOrdered: 1 }] })],
    });

    expect(response.status).toBe(207);
    expect(response.body.errors).toEqual([expect.objectContaining({ index: 1 })]);
  });

  it.each([
    ['__proto__', '{"sku":"PROTO-1","name":"n","baseUomCode":"EA","__proto__":{"isAdmin":true}}'],
    ['constructor', '{"sku":"PROTO-2","name":"n","baseUomCode":"EA","constructor":{"name":"x"}}'],
  ])('when a body has a %s key, it is refused as an unknown field', async (field, raw) => {
    const response = await postRaw(`${BASE}/items`, raw, { 'x-api-key': key });

    expect(response.status).toBe(400);
    expect(response.body.details).toEqual([expect.objectContaining({ path: field })]);
    expect(await count(`items WHERE sku LIKE 'PROTO-%'`)).toBe(0);
  });

  it('when a bulk entry has a __proto__ key, that entry is an entry error', async () => {
    const response = await postRaw(
      `${BASE}/items/bulk`,
      '{"items":[{"sku":"PB-1","name":"n","baseUomCode":"EA"},{"sku":"PB-2","name":"n","baseUomCode":"EA","__proto__":{}}]}',
      { 'x-api-key': key },
    );

    expect(response.status).toBe(207);
    expect(response.body.errors).toEqual([expect.objectContaining({ index: 1, key: 'PB-2' })]);
  });

  it.each([
    ['a single write', `${BASE}/items`, nested(10_000)],
    [
      'a bulk entry',
      `${BASE}/items/bulk`,
      `{"items":[{"sku":"D","name":"n","baseUomCode":"EA","x":${nested(10_000)}}]}`,
    ],
    ['an admin route', '/api/v1/auth/login', `{"email":${nested(10_000)}}`],
  ])('when %s is nested 10,000 deep, it answers 400', async (_case, path, raw) => {
    const response = await postRaw(path, raw, { 'x-api-key': key });

    expect(response.status).toBe(400);
    expect(response.body.message).toMatch(/nested deeper/);
  });

  it.each([
    ['no body', 400, undefined, {}],
    ['a form body', 415, 'email=a%40b.c&password=x', { 'content-type': 'application/x-www-form-urlencoded' }],
    ['a text/plain body', 415, '{"email":"a@b.c","password":"x"}', { 'content-type': 'text/plain' }],
    ['an empty JSON body', 400, '', { 'content-type': 'application/json' }],
  ])('when login gets %s, it answers %s', async (_case, status, raw, headers) => {
    const response = await request(gateway.url, 'POST', '/api/v1/auth/login', { rawBody: raw, headers });

    expect(response.status).toBe(status);
    expect(response.body).toMatchObject({ statusCode: status, requestId: expect.any(String) });
  });

  it.each([
    ['POST', '/api/v1/stock/adjustments'],
    ['POST', '/api/v1/users'],
    ['PATCH', '/api/v1/users/00000000-0000-4000-8000-000000000000'],
    ['POST', '/api/v1/webhooks'],
    ['POST', '/api/v1/api-keys'],
    ['POST', '/api/v1/auth/change-password'],
  ])('when %s %s has no body, it answers 400, not a 5xx', async (method, path) => {
    const response = await request(gateway.url, method, path, { token });

    expect(response.status).toBe(400);
  });

  it.each([
    ['gzip', 'gzip'],
    ['br', 'br'],
    ['deflate', 'deflate'],
  ])('when a %s Content-Encoding body is garbage, it answers 400', async (_case, encoding) => {
    for (const path of [`${BASE}/items`, '/api/v1/auth/login']) {
      const response = await postRaw(path, 'definitely not compressed', {
        'x-api-key': key,
        'content-encoding': encoding,
        'content-type': 'application/json',
      });
      expect(response.status).toBe(400);
    }
  });

  it.each([
    ['/api/v1/orders/%E0%A4%A', true],
    [`${BASE}/orders/%E0%A4%A`, false],
    [`${BASE}/asn/%ff`, false],
  ])('when the path %s is not valid percent-encoding, it answers 400', async (path, jwt) => {
    const response = await request(gateway.url, 'GET', path, jwt ? { token } : { headers: { 'x-api-key': key } });

    expect(response.status).toBe(400);
    expect(JSON.stringify(response.body)).toMatch(/percent-encoding/);
  });

  it.each([[`${BASE}/orders/SO%00X`], [`${BASE}/stock?sku=%00`], ['/api/v1/orders/SO%00']])(
    'when %s carries a NUL, it answers 400',
    async (path) => {
      const response = await request(gateway.url, 'GET', path, { headers: { 'x-api-key': key }, token });

      expect(response.status).toBe(400);
    },
  );
});
