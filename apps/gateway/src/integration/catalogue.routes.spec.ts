import {
  createApiKey,
  createMasterData,
  createTenantWithWarehouse,
  createTestContext,
  request,
  type JsonNode,
  type TestContext,
  type TestGateway,
} from '@wms/testing';

const BASE = '/api/v1/integration/v1';

/**
 * Reading the catalogue back: items, partners and locations as keyset pages of one tenant, narrowed by
 * natural keys and updatedSince, and one item by sku. Each tenant here is the spec's own.
 */
describe('integration catalogue reads (items, partners, locations)', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let tenantId: string;
  let key: string;
  let otherKey: string;

  beforeAll(async () => {
    ctx = await createTestContext('catalogue-routes');
    gateway = await ctx.startGateway();
    ({
      tenant: { id: tenantId },
    } = await createTenantWithWarehouse(ctx, undefined, 'WH1'));
    await ctx.services.warehouses.create({ tenantId, code: 'WH2', name: 'Second' });
    key = (await createApiKey(ctx, { tenantId, scopes: ['read'] })).rawKey;
    // One write each, so every item has its own updated_at and the list order is the order written.
    for (const sku of ['A-1', 'A-2', 'A-3', 'A-4', 'A-5']) await createMasterData(ctx, tenantId, { items: [{ sku }] });
    await createMasterData(ctx, tenantId, {
      partners: [
        { code: 'SUP', type: 'supplier' },
        { code: 'CUST', type: 'customer' },
      ],
      locations: [
        { warehouseCode: 'WH1', code: 'A-01', pickFace: true },
        { warehouseCode: 'WH2', code: 'A-01' },
        { warehouseCode: 'WH2', code: 'B-01' },
      ],
    });
    const other = await createTenantWithWarehouse(ctx, undefined, 'WH1');
    otherKey = (await createApiKey(ctx, { tenantId: other.tenant.id, scopes: ['read'] })).rawKey;
    await createMasterData(ctx, other.tenant.id, { items: [{ sku: 'A-1' }, { sku: 'THEIRS' }] });
  });
  afterAll(() => ctx.close());

  const get = (path: string, apiKey = key) =>
    request(gateway.url, 'GET', `${BASE}${path}`, { headers: { 'x-api-key': apiKey } });

  /** Every page of a list, following nextCursor; answers the entries in the order they came and the pages. */
  async function walk(path: string): Promise<{ entries: JsonNode[]; pages: number }> {
    const entries: JsonNode[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const separator = path.includes('?') ? '&' : '?';
      const response = await get(cursor ? `${path}${separator}cursor=${encodeURIComponent(cursor)}` : path);
      expect(response.status).toBe(200);
      entries.push(...response.body.data);
      cursor = response.body.nextCursor as unknown as string | null;
      pages += 1;
    } while (cursor);
    return { entries, pages };
  }

  it('when items are listed two at a time, the cursor walks every item once, oldest change first', async () => {
    const { entries, pages } = await walk('/items?limit=2');

    expect(pages).toBe(3);
    expect(entries.map((item) => item.sku)).toEqual(['A-1', 'A-2', 'A-3', 'A-4', 'A-5']);
  });

  it('when an item is read, it answers the upsert fields with its id and times, in the list as by sku', async () => {
    await createMasterData(ctx, tenantId, { items: [{ sku: 'FULL', name: 'Full item', tracking: 'lot' }] });
    await ctx.runtime.db.sequelize.query(
      `UPDATE items SET barcode = '4006381333931', category = 'tools', shelf_life_days = 30, weight_kg = 1.25
       WHERE tenant_id = $1 AND sku = 'FULL'`,
      { bind: [tenantId] },
    );

    const one = await get('/items/FULL');
    const listed = await get('/items?sku=FULL');

    expect(one.status).toBe(200);
    expect(one.body).toEqual({
      status: 'success',
      data: {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        sku: 'FULL',
        name: 'Full item',
        barcode: '4006381333931',
        baseUomCode: 'EA',
        category: 'tools',
        tracking: 'lot',
        shelfLifeDays: 30,
        weightKg: 1.25,
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      },
      requestId: expect.any(String),
    });
    expect(listed.body.data).toEqual([one.body.data]);
  });

  it('when skus are named, only those items come, one sku alone included', async () => {
    const two = await get('/items?sku=A-4&sku=A-2&sku=NOPE');
    const one = await get('/items?sku=A-3');

    expect(two.body.data.map((item) => item.sku)).toEqual(['A-2', 'A-4']);
    expect(two.body.nextCursor).toBeNull();
    expect(one.body.data.map((item) => item.sku)).toEqual(['A-3']);
  });

  it('when updatedSince is given, only items written at or after it come', async () => {
    const [[{ since }]] = (await ctx.runtime.db.sequelize.query(
      `SELECT to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS since
       FROM items WHERE tenant_id = $1 AND sku = 'A-4'`,
      { bind: [tenantId] },
    )) as [Array<{ since: string }>, unknown];

    const response = await get(`/items?updatedSince=${since}&sku=A-3&sku=A-4&sku=A-5`);

    expect(response.body.data.map((item) => item.sku)).toEqual(['A-4', 'A-5']);
  });

  it("when another tenant's key reads, this tenant's items are invisible: its list and its sku lookups", async () => {
    const theirs = await get('/items?sku=A-2&sku=A-3', otherKey);
    const lookup = await get('/items/A-2', otherKey);
    const own = await get('/items/THEIRS');

    expect(theirs.body.data).toEqual([]);
    expect(lookup.status).toBe(404);
    expect(own.status).toBe(404);
    expect(own.body).toMatchObject({ status: 'error', code: 'NOT_FOUND', message: 'Item SKU THEIRS not found' });
    const otherList = await get('/items', otherKey);
    expect(otherList.body.data.map((item) => item.sku).sort()).toEqual(['A-1', 'THEIRS']);
    const mine = await get('/items?sku=A-1');
    expect(mine.body.data).toHaveLength(1);
    expect(otherList.body.data.map((item) => item.id)).not.toContain(mine.body.data[0]!.id);
  });

  it.each([
    ['a limit of 0', '/items?limit=0'],
    ['a limit over 500', '/items?limit=501'],
    ['more than 100 skus', `/items?${Array.from({ length: 101 }, (_, i) => `sku=S${i}`).join('&')}`],
    ['a cursor this API did not issue', '/items?cursor=bm90LWEtY3Vyc29y'],
    ['an unknown parameter', '/items?colour=red'],
    ['more than 100 partner codes', `/partners?${Array.from({ length: 101 }, (_, i) => `code=P${i}`).join('&')}`],
    ['an unknown partner type', '/partners?type=friend'],
    ['a limit over 500 of locations', '/locations?limit=1000'],
  ])('when a list is asked with %s, it answers 400 VALIDATION_FAILED', async (_case, path) => {
    const response = await get(path);

    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ status: 'error', code: 'VALIDATION_FAILED' });
  });

  it('when 100 skus are named, the list answers', async () => {
    const response = await get(`/items?${Array.from({ length: 100 }, (_, i) => `sku=A-${i}`).join('&')}`);

    expect(response.status).toBe(200);
    expect(response.body.data.map((item) => item.sku)).toEqual(['A-1', 'A-2', 'A-3', 'A-4', 'A-5']);
  });

  it('when partners are listed, each comes with its type and contact; codes and type narrow the list', async () => {
    await ctx.services.masterData.upsertPartners({ tenantId }, [
      { code: 'CARR', name: 'Carrier', type: 'carrier', contact: { phone: '+49 30 1234', email: 'ops@carrier.test' } },
    ]);

    const all = await walk('/partners?limit=1');
    const byCode = await get('/partners?code=CARR&code=SUP');
    const customers = await get('/partners?type=customer');

    // SUP and CUST were written in one statement (one updated_at), CARR after them.
    expect(
      all.entries
        .map((partner) => partner.code)
        .slice(0, 2)
        .sort(),
    ).toEqual(['CUST', 'SUP']);
    expect(all.entries.map((partner) => partner.code)[2]).toBe('CARR');
    expect(all.entries[2]).toEqual({
      id: expect.any(String),
      code: 'CARR',
      name: 'Carrier',
      type: 'carrier',
      contact: { phone: '+49 30 1234', email: 'ops@carrier.test' },
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(byCode.body.data.map((partner) => partner.code)).toEqual(['SUP', 'CARR']);
    expect(all.pages).toBe(3);
    expect(customers.body.data.map((partner) => partner.code)).toEqual(['CUST']);
  });

  it('when locations are listed, each names its warehouse; warehouseCode and codes narrow the list', async () => {
    const wh2 = await get('/locations?warehouseCode=WH2');
    const a01 = await get('/locations?code=A-01');
    const receiving = await get('/locations?warehouseCode=WH1&code=RECEIVING');

    expect(wh2.status).toBe(200);
    expect(wh2.body.data.map((location) => location.code).sort()).toEqual(['A-01', 'B-01', 'RECEIVING']);
    const a01Rows = a01.body.data.map((location) => [location.warehouseCode, location.code, location.pickFace]);
    expect(a01Rows.sort()).toEqual([
      ['WH1', 'A-01', true],
      ['WH2', 'A-01', false],
    ]);
    expect(receiving.body.data).toEqual([
      {
        id: expect.any(String),
        warehouseCode: 'WH1',
        code: 'RECEIVING',
        zone: 'RECEIVING',
        type: 'receiving',
        pickFace: false,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      },
    ]);
  });

  it('when locations of a warehouse the tenant does not have are asked, it answers 400 REFERENCE_NOT_FOUND', async () => {
    const response = await get('/locations?warehouseCode=NOWHERE');

    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({
      code: 'REFERENCE_NOT_FOUND',
      message: 'Warehouse code NOWHERE not found',
    });
  });

  it('when a cross-tenant key lists without tenantId it gets 400 TENANT_REQUIRED, and with it the page', async () => {
    const crossKey = (await createApiKey(ctx, { scopes: ['read'] })).rawKey;

    const without = await get('/items', crossKey);
    const withTenant = await get(`/items?tenantId=${tenantId}&sku=A-1`, crossKey);

    expect(without.status).toBe(400);
    expect(without.body).toMatchObject({ code: 'TENANT_REQUIRED', message: 'tenantId is required.' });
    expect(withTenant.body.data.map((item) => item.sku)).toEqual(['A-1']);
  });
});
