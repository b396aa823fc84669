import {
  createApiKey,
  createMasterData,
  createTenantWithWarehouse,
  createTestContext,
  request,
  type TestContext,
  type TestGateway,
} from '@wms/testing';

const BASE = '/api/v1/integration/v1';

/** The stock of many skus in one call: each element is GET /stock's answer for that sku, in the order asked. */
describe('integration stock levels of many skus', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let tenantId: string;
  let key: string;

  beforeAll(async () => {
    ctx = await createTestContext('stock-levels');
    gateway = await ctx.startGateway();
    ({
      tenant: { id: tenantId },
    } = await createTenantWithWarehouse(ctx, undefined, 'WH1'));
    await ctx.services.warehouses.create({ tenantId, code: 'WH2', name: 'Second' });
    await createMasterData(ctx, tenantId, {
      items: [{ sku: 'PLAIN' }, { sku: 'LOT', tracking: 'lot' }, { sku: 'EMPTY' }],
      locations: [
        { warehouseCode: 'WH1', code: 'A-01' },
        { warehouseCode: 'WH2', code: 'B-01' },
      ],
    });
    await ctx.runtime.db.sequelize.transaction(async (transaction) => {
      const context = { tenantId, transaction };
      await ctx.services.grns.receive(context, {
        warehouseCode: 'WH1',
        lines: [
          { sku: 'PLAIN', uomCode: 'EA', qty: 4, locationCode: 'A-01' },
          { sku: 'LOT', uomCode: 'EA', qty: 2.5, lotNo: 'L1', expiryDate: '2031-01-01', locationCode: 'A-01' },
        ],
      });
      await ctx.services.grns.receive(context, {
        warehouseCode: 'WH2',
        lines: [{ sku: 'PLAIN', uomCode: 'EA', qty: 123456789012.3456, locationCode: 'B-01' }],
      });
    });
    key = (await createApiKey(ctx, { tenantId, scopes: ['read'] })).rawKey;
  });
  afterAll(() => ctx.close());

  const get = (path: string, headers: Record<string, string> = {}, apiKey = key) =>
    request(gateway.url, 'GET', `${BASE}${path}`, { headers: { 'x-api-key': apiKey, ...headers } });

  it('when several skus are asked, each comes as GET /stock answers it, in the order asked, a repeat once', async () => {
    const levels = await get('/stock/levels?sku=LOT&sku=EMPTY&sku=PLAIN&sku=LOT');
    const singles = await Promise.all(['LOT', 'EMPTY', 'PLAIN'].map((sku) => get(`/stock?sku=${sku}`)));

    expect(levels.status).toBe(200);
    expect(levels.body).toEqual({ status: 'success', data: expect.any(Array), requestId: expect.any(String) });
    expect(levels.body.data).toEqual(singles.map((single) => single.body.data));
    expect(levels.body.data[1]).toEqual({
      sku: 'EMPTY',
      itemName: 'Item EMPTY',
      tracking: 'none',
      totalOnHand: 0,
      totalAllocated: 0,
      totalAvailable: 0,
      stocks: [],
    });
  });

  it("when a warehouse is named, only that warehouse's rows are counted, as GET /stock counts them", async () => {
    const levels = await get('/stock/levels?sku=PLAIN&sku=LOT&warehouseCode=WH1');
    const single = await get('/stock?sku=PLAIN&warehouseCode=WH1');

    expect(levels.body.data[0]).toEqual(single.body.data);
    expect(levels.body.data.map((level) => [level.sku, level.totalOnHand])).toEqual([
      ['PLAIN', 4],
      ['LOT', 2.5],
    ]);
    expect(levels.body.data[1]!.stocks).toEqual([
      {
        warehouseCode: 'WH1',
        locationCode: 'A-01',
        lotNo: 'L1',
        expiryDate: '2031-01-01',
        qtyOnHand: 2.5,
        qtyAllocated: 0,
        qtyAvailable: 2.5,
      },
    ]);
  });

  it("when the request's version is 2026-12-01, quantities are exact decimal strings, as in GET /stock", async () => {
    const newest = { 'wms-version': '2026-12-01' };

    const levels = await get('/stock/levels?sku=PLAIN', newest);
    const single = await get('/stock?sku=PLAIN', newest);

    expect(levels.body.data).toEqual([single.body.data]);
    expect(levels.body.data[0]).toMatchObject({ totalOnHand: '123456789016.3456', totalAllocated: '0.0000' });
    expect(levels.body.data[0]!.stocks.map((row) => row.qtyOnHand)).toEqual(['4.0000', '123456789012.3456']);
  });

  it('when a sku or the warehouse is unknown in the tenant, it answers 400 REFERENCE_NOT_FOUND naming them', async () => {
    const other = await createTenantWithWarehouse(ctx, undefined, 'WH9');
    await createMasterData(ctx, other.tenant.id, { items: [{ sku: 'THEIRS' }] });

    const skus = await get('/stock/levels?sku=PLAIN&sku=THEIRS&sku=NOPE');
    const one = await get('/stock/levels?sku=NOPE');
    const warehouse = await get('/stock/levels?sku=PLAIN&warehouseCode=WH9');

    expect(skus.status).toBe(400);
    expect(skus.body).toMatchObject({ code: 'REFERENCE_NOT_FOUND', message: 'Item SKUs THEIRS, NOPE not found' });
    expect(one.body).toMatchObject({ code: 'REFERENCE_NOT_FOUND', message: 'Item SKU NOPE not found' });
    expect(warehouse.body).toMatchObject({ code: 'REFERENCE_NOT_FOUND', message: 'Warehouse code WH9 not found' });
  });

  it.each([
    ['no sku', '/stock/levels'],
    ['more than 100 skus', `/stock/levels?${Array.from({ length: 101 }, (_, i) => `sku=S${i}`).join('&')}`],
    ['an empty sku', '/stock/levels?sku='],
    ['an unknown parameter', '/stock/levels?sku=PLAIN&lot=L1'],
  ])('when the call has %s, it answers 400 VALIDATION_FAILED', async (_case, path) => {
    const response = await get(path);

    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ status: 'error', code: 'VALIDATION_FAILED' });
  });

  it('when 100 skus are asked, the call answers each known one', async () => {
    const skus = ['PLAIN', ...Array.from({ length: 99 }, () => 'LOT')];

    const response = await get(`/stock/levels?${skus.map((sku) => `sku=${sku}`).join('&')}`);

    expect(response.status).toBe(200);
    expect(response.body.data.map((level) => level.sku)).toEqual(['PLAIN', 'LOT']);
  });

  it('when a key has no read scope, it answers 401 in the guard shape', async () => {
    const writer = (await createApiKey(ctx, { tenantId, scopes: ['write'] })).rawKey;

    const response = await get('/stock/levels?sku=PLAIN', {}, writer);

    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ message: 'API key missing required scope(s)' });
  });
});
