import {
  createApiKey,
  createMasterData,
  createTestContext,
  defaultTenantId,
  request,
  type HttpResponse,
  type JsonNode,
  type TestContext,
  type TestGateway,
} from '@wms/testing';

const BASE = '/api/v1/integration/v1';

/** One page of the ASN list. */
interface AsnPage {
  data: { asnNo: string }[];
  nextCursor: string | null;
}

describe('integration ASN, GRN and stock inquiry', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let key: string;
  let tenantId: string;

  beforeAll(async () => {
    ctx = await createTestContext('inbound-routes');
    gateway = await ctx.startGateway();
    tenantId = await defaultTenantId(ctx);
    key = (await createApiKey(ctx, { tenantId })).rawKey;
    await createMasterData(ctx, tenantId, {
      items: [{ sku: 'PLAIN' }, { sku: 'LOTTED', tracking: 'lot' }, { sku: 'BOXED', baseUomCode: 'BOX' }],
      partners: [
        { code: 'SUP', type: 'supplier' },
        { code: 'CUST', type: 'customer' },
      ],
      locations: [{ warehouseCode: 'MAIN', code: 'A-01' }],
    });
  });
  afterAll(() => ctx.close());

  let reference = 0;
  const asn = (lines: unknown[], extra: Record<string, unknown> = {}) => ({
    warehouseCode: 'MAIN',
    supplierCode: 'SUP',
    expectedDate: '2030-01-15',
    referenceNo: `PO-${++reference}`,
    lines,
    ...extra,
  });
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    request(gateway.url, 'POST', `${BASE}${path}`, { body, headers: { 'x-api-key': key, ...headers } });
  const get = <T = JsonNode>(path: string, apiKey = key) =>
    request<T>(gateway.url, 'GET', `${BASE}${path}`, { headers: { 'x-api-key': apiKey } });

  it('when an ASN is created, it answers 201 with the ASN, its number and its lines, as the inquiry shows it', async () => {
    const created = await post('/asn', asn([{ lineNo: 1, sku: 'PLAIN', uomCode: 'EA', expectedQty: 10 }]));

    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      asnNo: expect.stringMatching(/^ASN-\d{8}-\d{6}$/),
      warehouseCode: 'MAIN',
      supplierCode: 'SUP',
      expectedDate: '2030-01-15',
      status: 'open',
      lines: [
        { lineNo: 1, sku: 'PLAIN', uomCode: 'EA', expectedQty: 10, receivedQty: 0, lotNo: null, expiryDate: null },
      ],
      grns: [],
    });
    const inquiry = await get(`/asn/${created.body.data.asnNo}`);
    expect(inquiry.status).toBe(200);
    expect(inquiry.body.data).toEqual(created.body.data);
  });

  it.each([
    [
      'an unknown sku',
      { lines: [{ lineNo: 1, sku: 'NOPE', uomCode: 'EA', expectedQty: 1 }] },
      'Item SKU NOPE not found',
    ],
    ['an unknown warehouse', { warehouseCode: 'NOWH' }, 'Warehouse code NOWH not found'],
    ['an unknown supplier', { supplierCode: 'NOSUP' }, 'Partner code NOSUP not found'],
  ])(
    'when an ASN names %s, it answers 400 REFERENCE_NOT_FOUND naming the reference',
    async (_case, change, message) => {
      const response = await post('/asn', {
        ...asn([{ lineNo: 1, sku: 'PLAIN', uomCode: 'EA', expectedQty: 1 }]),
        ...change,
      });

      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ status: 'error', code: 'REFERENCE_NOT_FOUND', message });
    },
  );

  it.each([
    [
      'a uomCode other than the base unit',
      [{ lineNo: 1, sku: 'BOXED', uomCode: 'EA', expectedQty: 1 }],
      'lines.0.uomCode',
      /line 1: uomCode EA is not the base unit BOX/,
    ],
    [
      'a lot on an item without lots',
      [{ lineNo: 1, sku: 'PLAIN', uomCode: 'EA', expectedQty: 1, lotNo: 'L1' }],
      'lines.0.lotNo',
      /not lot-tracked/,
    ],
    [
      'a zero quantity',
      [{ lineNo: 1, sku: 'PLAIN', uomCode: 'EA', expectedQty: 0 }],
      'lines.0.expectedQty',
      /must be a positive number/,
    ],
    [
      'a negative quantity',
      [{ lineNo: 1, sku: 'PLAIN', uomCode: 'EA', expectedQty: -2 }],
      'lines.0.expectedQty',
      /must be a positive number/,
    ],
    [
      'more than four decimals',
      [{ lineNo: 1, sku: 'PLAIN', uomCode: 'EA', expectedQty: 1.00001 }],
      'lines.0.expectedQty',
      /at most 4 decimals/,
    ],
    [
      'a repeated lineNo',
      [
        { lineNo: 1, sku: 'PLAIN', uomCode: 'EA', expectedQty: 1 },
        { lineNo: 1, sku: 'PLAIN', uomCode: 'EA', expectedQty: 2 },
      ],
      'lines.1',
      /repeats lineNo 1/,
    ],
    [
      'a date that is not a calendar date',
      [{ lineNo: 1, sku: 'LOTTED', uomCode: 'EA', expectedQty: 1, expiryDate: '2030-02-30' }],
      'lines.0.expiryDate',
      /not a calendar date/,
    ],
    ['no lines', [], 'lines', /at least 1/],
  ])(
    'when an ASN line has %s, it answers 400 VALIDATION_FAILED naming the line and writes nothing',
    async (_case, lines, path, message) => {
      const body = asn(lines as unknown[]);

      const response = await post('/asn', body);

      expect(response.status).toBe(400);
      expect(response.body.code).toBe('VALIDATION_FAILED');
      expect(response.body.details).toEqual(
        expect.arrayContaining([{ path, message: expect.stringMatching(message) }]),
      );
      expect(
        (
          await ctx.runtime.db.sequelize.query('SELECT 1 FROM asns WHERE reference_no = $1', {
            bind: [body.referenceNo],
          })
        )[0],
      ).toHaveLength(0);
    },
  );

  it('when the supplier is a customer, it answers 400 VALIDATION_FAILED', async () => {
    const response = await post(
      '/asn',
      asn([{ lineNo: 1, sku: 'PLAIN', uomCode: 'EA', expectedQty: 1 }], { supplierCode: 'CUST' }),
    );

    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'Partner code CUST is a customer, not a supplier',
    });
  });

  it('when a second ASN has the same referenceNo, it answers 409 DUPLICATE_REFERENCE naming the first', async () => {
    const first = await post(
      '/asn',
      asn([{ lineNo: 1, sku: 'PLAIN', uomCode: 'EA', expectedQty: 1 }], { referenceNo: 'PO-DUP' }),
    );

    const second = await post(
      '/asn',
      asn([{ lineNo: 1, sku: 'PLAIN', uomCode: 'EA', expectedQty: 1 }], { referenceNo: 'PO-DUP' }),
    );

    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({
      code: 'DUPLICATE_REFERENCE',
      message: `ASN with referenceNo PO-DUP already exists: ${first.body.data.asnNo}`,
    });
  });

  it('when a receipt would carry on hand past what the quantity column holds, it answers 400 and stores nothing of it', async () => {
    await createMasterData(ctx, tenantId, { items: [{ sku: 'HUGE' }] });
    const receive = async (qty: number) => {
      const created = await post('/asn', asn([{ lineNo: 1, sku: 'HUGE', uomCode: 'EA', expectedQty: 10 }]));
      const asnNo = String(created.body.data.asnNo);
      const grn = await post('/grn', {
        warehouseCode: 'MAIN',
        asnNo,
        lines: [{ asnLineNo: 1, sku: 'HUGE', uomCode: 'EA', qty, locationCode: 'A-01' }],
      });
      return { asnNo, grn };
    };
    expect((await receive(1)).grn.status).toBe(201);
    await ctx.runtime.db.sequelize.query(
      `UPDATE stock_rows SET qty_on_hand = 99999999999999 FROM items
        WHERE items.id = stock_rows.item_id AND items.sku = 'HUGE' AND stock_rows.tenant_id = :tenantId`,
      { replacements: { tenantId } },
    );

    const { asnNo, grn } = await receive(5);

    expect(grn.status).toBe(400);
    expect(grn.body).toMatchObject({
      status: 'error',
      code: 'VALIDATION_FAILED',
      message: 'A quantity or amount is larger than the warehouse can store',
    });
    expect(JSON.stringify(grn.body)).not.toMatch(/numeric|overflow|SELECT|UPDATE/i);
    expect((await get('/stock?sku=HUGE&warehouseCode=MAIN')).body.data).toMatchObject({ totalOnHand: 99999999999999 });
    expect((await get(`/asn/${asnNo}`)).body.data).toMatchObject({ status: 'open', grns: [] });
  });

  it('when a GRN receives part and then the rest, the ASN goes open → receiving → completed and the stock follows', async () => {
    await createMasterData(ctx, tenantId, { items: [{ sku: 'FLOW' }] });
    const created = await post(
      '/asn',
      asn([
        { lineNo: 1, sku: 'FLOW', uomCode: 'EA', expectedQty: 10 },
        { lineNo: 2, sku: 'FLOW', uomCode: 'EA', expectedQty: 5 },
      ]),
    );
    const asnNo = created.body.data.asnNo;

    const partial = await post('/grn', {
      warehouseCode: 'MAIN',
      asnNo,
      lines: [{ asnLineNo: 1, sku: 'FLOW', uomCode: 'EA', qty: 4 }],
    });
    const afterPartial = await get(`/asn/${asnNo}`);
    const rest = await post('/grn', {
      warehouseCode: 'MAIN',
      asnNo,
      lines: [
        { asnLineNo: 1, sku: 'FLOW', uomCode: 'EA', qty: 6, locationCode: 'A-01' },
        { asnLineNo: 2, sku: 'FLOW', uomCode: 'EA', qty: 5 },
      ],
    });
    const afterRest = await get(`/asn/${asnNo}`);
    const stock = await get('/stock?sku=FLOW&warehouseCode=MAIN');

    expect(partial.status).toBe(201);
    expect(partial.body.data).toMatchObject({
      grnNo: expect.stringMatching(/^GRN-\d{8}-\d{6}$/),
      asnNo,
      asnStatus: 'receiving',
    });
    expect(afterPartial.body.data.status).toBe('receiving');
    expect(afterPartial.body.data.lines.map((line) => line.receivedQty)).toEqual([4, 0]);
    expect(rest.status).toBe(201);
    expect(rest.body.data.asnStatus).toBe('completed');
    expect(afterRest.body.data.status).toBe('completed');
    expect(afterRest.body.data.lines.map((line) => line.receivedQty)).toEqual([10, 5]);
    expect(afterRest.body.data.grns.map((grn) => grn.grnNo)).toEqual([partial.body.data.grnNo, rest.body.data.grnNo]);
    expect(stock.body.data).toMatchObject({ sku: 'FLOW', totalOnHand: 15, totalAllocated: 0, totalAvailable: 15 });
    expect(stock.body.data.stocks).toEqual([
      {
        warehouseCode: 'MAIN',
        locationCode: 'A-01',
        lotNo: null,
        expiryDate: null,
        qtyOnHand: 6,
        qtyAllocated: 0,
        qtyAvailable: 6,
      },
      {
        warehouseCode: 'MAIN',
        locationCode: 'RECEIVING',
        lotNo: null,
        expiryDate: null,
        qtyOnHand: 9,
        qtyAllocated: 0,
        qtyAvailable: 9,
      },
    ]);
  });

  it('when a GRN would receive more than a line still expects, it answers 400 VALIDATION_FAILED and changes nothing', async () => {
    await createMasterData(ctx, tenantId, { items: [{ sku: 'OVER' }] });
    const asnNo = (await post('/asn', asn([{ lineNo: 1, sku: 'OVER', uomCode: 'EA', expectedQty: 5 }]))).body.data
      .asnNo;
    await post('/grn', { warehouseCode: 'MAIN', asnNo, lines: [{ asnLineNo: 1, sku: 'OVER', uomCode: 'EA', qty: 3 }] });

    const response = await post('/grn', {
      warehouseCode: 'MAIN',
      asnNo,
      lines: [{ asnLineNo: 1, sku: 'OVER', uomCode: 'EA', qty: 3 }],
    });

    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: expect.stringContaining('over-receipt of ASN line 1'),
    });
    expect((await get(`/asn/${asnNo}`)).body.data.lines[0].receivedQty).toBe(3);
    expect((await get('/stock?sku=OVER')).body.data.totalOnHand).toBe(3);
  });

  it('when many GRNs receive one ASN line at once, exactly what was expected is received', async () => {
    await createMasterData(ctx, tenantId, { items: [{ sku: 'RACE' }] });
    const asnNo = (await post('/asn', asn([{ lineNo: 1, sku: 'RACE', uomCode: 'EA', expectedQty: 5 }]))).body.data
      .asnNo;

    const responses = await Promise.all(
      Array.from({ length: 8 }, () =>
        post('/grn', { warehouseCode: 'MAIN', asnNo, lines: [{ asnLineNo: 1, sku: 'RACE', uomCode: 'EA', qty: 1 }] }),
      ),
    );

    expect(responses.filter((response) => response.status === 201)).toHaveLength(5);
    expect(
      responses.filter((response) => response.status !== 201).every((response) => [400, 409].includes(response.status)),
    ).toBe(true);
    expect((await get(`/asn/${asnNo}`)).body.data).toMatchObject({ status: 'completed', lines: [{ receivedQty: 5 }] });
    expect((await get('/stock?sku=RACE')).body.data.totalOnHand).toBe(5);
  });

  it('when a GRN names a completed ASN, it answers 409 INVALID_STATE naming the state', async () => {
    await createMasterData(ctx, tenantId, { items: [{ sku: 'DONE' }] });
    const asnNo = (await post('/asn', asn([{ lineNo: 1, sku: 'DONE', uomCode: 'EA', expectedQty: 1 }]))).body.data
      .asnNo;
    await post('/grn', { warehouseCode: 'MAIN', asnNo, lines: [{ asnLineNo: 1, sku: 'DONE', uomCode: 'EA', qty: 1 }] });

    const response = await post('/grn', {
      warehouseCode: 'MAIN',
      asnNo,
      lines: [{ asnLineNo: 1, sku: 'DONE', uomCode: 'EA', qty: 1 }],
    });

    expect(response.status).toBe(409);
    expect(response.body).toMatchObject({
      code: 'INVALID_STATE',
      message: `ASN ${asnNo} is completed and cannot be received against`,
    });
  });

  it.each([
    [
      'an unknown ASN',
      { asnNo: 'ASN-19990101-000001', lines: [{ asnLineNo: 1, sku: 'PLAIN', uomCode: 'EA', qty: 1 }] },
      'REFERENCE_NOT_FOUND',
      'ASN ASN-19990101-000001 not found',
    ],
    [
      'an unknown location',
      { lines: [{ sku: 'PLAIN', uomCode: 'EA', qty: 1, locationCode: 'NOLOC' }] },
      'REFERENCE_NOT_FOUND',
      'Location code NOLOC not found',
    ],
    [
      'an unknown sku',
      { lines: [{ sku: 'NOPE', uomCode: 'EA', qty: 1 }] },
      'REFERENCE_NOT_FOUND',
      'Item SKU NOPE not found',
    ],
    [
      'a lot-tracked item without lotNo',
      { lines: [{ sku: 'LOTTED', uomCode: 'EA', qty: 1 }] },
      'VALIDATION_FAILED',
      'line 1: item SKU LOTTED is lot-tracked, so lotNo is required',
    ],
  ])('when a GRN names %s, it answers 400 %s', async (_case, body, code, message) => {
    const response = await post('/grn', { warehouseCode: 'MAIN', ...body });

    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code, message });
  });

  it('when a blind GRN line carries asnLineNo, it is refused; without it, stock goes on hand at RECEIVING', async () => {
    const refused = await post('/grn', {
      warehouseCode: 'MAIN',
      lines: [{ asnLineNo: 1, sku: 'PLAIN', uomCode: 'EA', qty: 2 }],
    });
    const blind = await post('/grn', { warehouseCode: 'MAIN', lines: [{ sku: 'PLAIN', uomCode: 'EA', qty: 2 }] });

    expect(refused.status).toBe(400);
    expect(refused.body.details).toEqual([
      { path: 'lines.0.asnLineNo', message: 'lines[0].asnLineNo is only allowed when the GRN names an asnNo' },
    ]);
    expect(blind.status).toBe(201);
    expect(blind.body.data).toMatchObject({
      asnNo: null,
      asnStatus: null,
      lines: [{ lineNo: 1, asnLineNo: null, sku: 'PLAIN', qty: 2, locationCode: 'RECEIVING' }],
    });
  });

  it('when a lot-tracked item is received, the stock inquiry shows its lot and expiry, and totals equal the rows', async () => {
    const asnNo = (
      await post(
        '/asn',
        asn([{ lineNo: 1, sku: 'LOTTED', uomCode: 'EA', expectedQty: 7, lotNo: 'LOT-A', expiryDate: '2031-06-30' }]),
      )
    ).body.data.asnNo;

    await post('/grn', {
      warehouseCode: 'MAIN',
      asnNo,
      lines: [{ asnLineNo: 1, sku: 'LOTTED', uomCode: 'EA', qty: 7, locationCode: 'A-01' }],
    });
    await post('/grn', {
      warehouseCode: 'MAIN',
      lines: [{ sku: 'LOTTED', uomCode: 'EA', qty: 2.5, lotNo: 'LOT-B', expiryDate: '2030-12-31' }],
    });
    const all = await get('/stock?sku=LOTTED&warehouseCode=MAIN');
    const oneLot = await get('/stock?sku=LOTTED&warehouseCode=MAIN&lotNo=LOT-A');

    expect(all.status).toBe(200);
    expect(all.body.data).toEqual({
      sku: 'LOTTED',
      itemName: 'Item LOTTED',
      tracking: 'lot',
      totalOnHand: 9.5,
      totalAllocated: 0,
      totalAvailable: 9.5,
      stocks: [
        {
          warehouseCode: 'MAIN',
          locationCode: 'A-01',
          lotNo: 'LOT-A',
          expiryDate: '2031-06-30',
          qtyOnHand: 7,
          qtyAllocated: 0,
          qtyAvailable: 7,
        },
        {
          warehouseCode: 'MAIN',
          locationCode: 'RECEIVING',
          lotNo: 'LOT-B',
          expiryDate: '2030-12-31',
          qtyOnHand: 2.5,
          qtyAllocated: 0,
          qtyAvailable: 2.5,
        },
      ],
    });
    expect(oneLot.body.data).toMatchObject({ totalOnHand: 7, stocks: [{ lotNo: 'LOT-A', expiryDate: '2031-06-30' }] });
  });

  it('when a known item has no stock, the inquiry answers 200 with zero totals; an unknown sku is 404, an unknown warehouse 400', async () => {
    await createMasterData(ctx, tenantId, { items: [{ sku: 'EMPTY' }] });

    const empty = await get('/stock?sku=EMPTY&warehouseCode=MAIN');
    const unknown = await get('/stock?sku=NOPE&warehouseCode=MAIN');
    const noWarehouse = await get('/stock?sku=EMPTY&warehouseCode=NOWH');
    const noSku = await get('/stock?warehouseCode=MAIN');

    expect(empty.status).toBe(200);
    expect(empty.body.data).toEqual({
      sku: 'EMPTY',
      itemName: 'Item EMPTY',
      tracking: 'none',
      totalOnHand: 0,
      totalAllocated: 0,
      totalAvailable: 0,
      stocks: [],
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ code: 'REFERENCE_NOT_FOUND', message: 'Item SKU NOPE not found' });
    expect(noWarehouse.status).toBe(400);
    expect(noWarehouse.body).toMatchObject({ code: 'REFERENCE_NOT_FOUND', message: 'Warehouse code NOWH not found' });
    expect(noSku.status).toBe(400);
    expect(noSku.body.code).toBe('VALIDATION_FAILED');
  });

  it('when a GRN or an ASN is posted without a body, it answers 400 VALIDATION_FAILED', async () => {
    const grn = await request(gateway.url, 'POST', `${BASE}/grn`, { headers: { 'x-api-key': key } });
    const asnAnswer = await request(gateway.url, 'POST', `${BASE}/asn`, { headers: { 'x-api-key': key } });

    expect(grn.status).toBe(400);
    expect(grn.body.code).toBe('VALIDATION_FAILED');
    expect(asnAnswer.status).toBe(400);
    expect(asnAnswer.body.code).toBe('VALIDATION_FAILED');
  });

  it('when an ASN number is unknown, the inquiry answers 404 naming the ASN', async () => {
    const response = await get('/asn/ASN-19990101-999999');

    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({
      status: 'error',
      code: 'NOT_FOUND',
      message: 'ASN ASN-19990101-999999 not found',
    });
  });

  it('when the ASN list is paged with a cursor, every ASN comes once, in update order, filtered by status', async () => {
    const all: string[] = [];
    let cursor: string | null = null;
    do {
      const page: HttpResponse<AsnPage> = await get<AsnPage>(`/asn?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.status).toBe(200);
      expect(page.body.data.length).toBeLessThanOrEqual(2);
      all.push(...page.body.data.map((row) => row.asnNo));
      cursor = page.body.nextCursor;
    } while (cursor);
    const completed = await get('/asn?status=completed&limit=500');
    const [rows] = (await ctx.runtime.db.sequelize.query('SELECT asn_no FROM asns ORDER BY updated_at, id')) as [
      { asn_no: string }[],
      unknown,
    ];

    expect(all).toEqual(rows.map((row) => row.asn_no));
    expect(completed.body.data.length).toBeGreaterThan(0);
    expect(completed.body.data.every((row) => String(row.status) === 'completed')).toBe(true);
    expect((await get('/asn?cursor=not-a-cursor')).status).toBe(400);
    expect((await get('/asn?limit=501')).status).toBe(400);
  });
});
