import {
  createApiKey,
  createTenantWithWarehouse,
  createTestContext,
  defaultTenantId,
  request,
  type TestContext,
  type TestGateway,
} from '@wms/testing';

const BASE = '/api/v1/integration/v1';

describe('integration single upserts (items, partners, locations)', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let key: string;
  let tenantId: string;

  beforeAll(async () => {
    ctx = await createTestContext('master-data-routes');
    gateway = await ctx.startGateway();
    tenantId = await defaultTenantId(ctx);
    key = (await createApiKey(ctx, { tenantId })).rawKey;
  });
  afterAll(() => ctx.close());

  const post = (path: string, body: unknown, apiKey = key, headers: Record<string, string> = {}) =>
    request(gateway.url, 'POST', `${BASE}${path}`, { body, headers: { 'x-api-key': apiKey, ...headers } });

  async function countRows(table: string, where = '1=1', bind: unknown[] = []): Promise<number> {
    const [rows] = (await ctx.runtime.db.sequelize.query(`SELECT count(*)::int AS n FROM ${table} WHERE ${where}`, {
      bind,
    })) as [{ n: number }[], unknown];
    return rows[0]!.n;
  }

  it('when a new item is posted, it answers 200 with the success envelope and created true', async () => {
    const response = await post('/items', {
      sku: 'SKU-1',
      name: 'Widget',
      baseUomCode: 'EA',
      tracking: 'lot',
      weightKg: 1.5,
    });

    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      status: 'success',
      data: { id: expect.any(String), sku: 'SKU-1', created: true },
      requestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
  });

  it('when the same sku is posted again, it updates the item and answers created false with the same id', async () => {
    const first = await post('/items', { sku: 'SKU-2', name: 'Old', baseUomCode: 'EA' });

    const second = await post('/items', { sku: 'SKU-2', name: 'New', baseUomCode: 'BOX' });

    expect(second.status).toBe(200);
    expect(second.body.data).toEqual({ id: first.body.data.id, sku: 'SKU-2', created: false });
    const [rows] = (await ctx.runtime.db.sequelize.query(
      `SELECT name, base_uom_code FROM items WHERE sku = 'SKU-2'`,
    )) as [{ name: string; base_uom_code: string }[], unknown];
    expect(rows).toEqual([{ name: 'New', base_uom_code: 'BOX' }]);
  });

  it('when many requests upsert one sku at once, none fails and one row exists', async () => {
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, n) => post('/items', { sku: 'SKU-RACE', name: `Name ${n}`, baseUomCode: 'EA' })),
    );

    expect(responses.map((response) => response.status)).toEqual(Array(20).fill(200));
    expect(responses.filter((response) => response.body.data.created)).toHaveLength(1);
    expect(await countRows('items', `sku = 'SKU-RACE'`)).toBe(1);
  });

  it('when a partner is posted, it answers with id, code and created', async () => {
    const response = await post('/partners', {
      code: 'SUP-1',
      name: 'Supplier',
      type: 'supplier',
      contact: { phone: '+1 555 0100' },
    });

    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({ id: expect.any(String), code: 'SUP-1', created: true });
  });

  it('when a location is posted for a warehouse of the tenant, it answers with id, warehouseCode, code and created', async () => {
    const response = await post('/locations', {
      warehouseCode: 'MAIN',
      code: 'A-01-01',
      zone: 'A',
      type: 'storage',
      pickFace: true,
    });

    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({
      id: expect.any(String),
      warehouseCode: 'MAIN',
      code: 'A-01-01',
      created: true,
    });
  });

  it('when a location names an unknown warehouse, it answers 400 REFERENCE_NOT_FOUND and writes nothing', async () => {
    const response = await post('/locations', { warehouseCode: 'NOPE', code: 'X-1' });

    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({
      status: 'error',
      code: 'REFERENCE_NOT_FOUND',
      message: 'Warehouse code NOPE not found',
    });
    expect(await countRows('locations', `code = 'X-1'`)).toBe(0);
  });

  it('when a body has unknown fields and bad values, it answers 400 VALIDATION_FAILED listing every bad path', async () => {
    const response = await post('/items', { sku: 'SKU-3', name: '', colour: 'red', weightKg: 'heavy' });

    expect(response.status).toBe(400);
    expect(response.body.code).toBe('VALIDATION_FAILED');
    expect(response.body.details.map((detail) => detail.path).sort()).toEqual([
      'baseUomCode',
      'colour',
      'name',
      'weightKg',
    ]);
    expect(await countRows('items', `sku = 'SKU-3'`)).toBe(0);
  });

  it('when a partner type is not one of supplier, customer, carrier, other, it is refused', async () => {
    const response = await post('/partners', { code: 'P-X', name: 'X', type: 'vendor' });

    expect(response.status).toBe(400);
    expect(response.body.details).toEqual([{ path: 'type', message: expect.stringContaining('supplier') }]);
  });

  it('when the body is malformed JSON, it answers 400 INVALID_JSON in the envelope', async () => {
    const response = await request(gateway.url, 'POST', `${BASE}/items`, {
      rawBody: '{"sku": "A",',
      headers: { 'x-api-key': key },
    });

    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      status: 'error',
      code: 'INVALID_JSON',
      message: expect.any(String),
      requestId: expect.any(String),
    });
  });

  it('when the body is 1 MB and 1 byte, it answers 413 PAYLOAD_TOO_LARGE', async () => {
    const prefix = '{"sku":"BIG","name":"';
    const suffix = '","baseUomCode":"EA"}';
    const rawBody = prefix + 'x'.repeat(1024 * 1024 + 1 - prefix.length - suffix.length) + suffix;
    expect(Buffer.byteLength(rawBody)).toBe(1024 * 1024 + 1);

    const response = await request(gateway.url, 'POST', `${BASE}/items`, { rawBody, headers: { 'x-api-key': key } });

    expect(response.status).toBe(413);
    expect(response.body).toMatchObject({ status: 'error', code: 'PAYLOAD_TOO_LARGE' });
  });

  it('when a key without write scope posts, the guard answers 401 in the plain shape', async () => {
    const readOnly = (await createApiKey(ctx, { tenantId, scopes: ['read'] })).rawKey;

    const response = await post('/items', { sku: 'SKU-4', name: 'N', baseUomCode: 'EA' }, readOnly);

    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ statusCode: 401, message: 'API key missing required scope(s)' });
  });

  describe('tenants', () => {
    it('when a cross-tenant key names no tenant, it answers 400 TENANT_REQUIRED', async () => {
      const crossTenant = (await createApiKey(ctx, { tenantId: null })).rawKey;

      const response = await post('/items', { sku: 'SKU-5', name: 'N', baseUomCode: 'EA' }, crossTenant);

      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({
        status: 'error',
        code: 'TENANT_REQUIRED',
        message: 'tenantId is required.',
      });
    });

    it('when a cross-tenant key names a tenant, the item is written in that tenant', async () => {
      const crossTenant = (await createApiKey(ctx, { tenantId: null })).rawKey;
      const { tenant } = await createTenantWithWarehouse(ctx);

      const response = await post(
        '/items',
        { tenantId: tenant.id, sku: 'SKU-6', name: 'N', baseUomCode: 'EA' },
        crossTenant,
      );

      expect(response.status).toBe(200);
      expect(await countRows('items', `sku = 'SKU-6' AND tenant_id = $1`, [tenant.id])).toBe(1);
    });

    it('when a bound key names another tenant, it answers 403 TENANT_MISMATCH', async () => {
      const { tenant } = await createTenantWithWarehouse(ctx);

      const response = await post('/items', { tenantId: tenant.id, sku: 'SKU-7', name: 'N', baseUomCode: 'EA' });

      expect(response.status).toBe(403);
      expect(response.body).toMatchObject({ status: 'error', code: 'TENANT_MISMATCH' });
    });

    it("when a location names another tenant's warehouse, it is as if the warehouse did not exist", async () => {
      await createTenantWithWarehouse(ctx, 'OTHERWH', 'ELSEWHERE');

      const response = await post('/locations', { warehouseCode: 'ELSEWHERE', code: 'B-1' });

      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({
        code: 'REFERENCE_NOT_FOUND',
        message: 'Warehouse code ELSEWHERE not found',
      });
    });

    it('when two tenants use the same sku, each has its own item', async () => {
      const { tenant } = await createTenantWithWarehouse(ctx);
      const otherKey = (await createApiKey(ctx, { tenantId: tenant.id })).rawKey;

      const mine = await post('/items', { sku: 'SHARED', name: 'Mine', baseUomCode: 'EA' });
      const theirs = await post('/items', { sku: 'SHARED', name: 'Theirs', baseUomCode: 'EA' }, otherKey);

      expect(mine.body.data.created).toBe(true);
      expect(theirs.body.data.created).toBe(true);
      expect(theirs.body.data.id).not.toBe(mine.body.data.id);
    });
  });
});
