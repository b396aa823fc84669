import { QueryTypes } from 'sequelize';
import {
  createApiKey,
  createMasterData,
  createSandboxTenant,
  createTenantWithWarehouse,
  createTestContext,
  loginAs,
  request,
  TEST_ADMIN,
  type JsonNode,
  type TestContext,
  type TestGateway,
} from '@wms/testing';

const API = '/api/v1';
const BASE = '/api/v1/integration/v1';

/** A stock row's balance beside what its ledger entries add up to (after its latest checkpoint). */
interface Reconciled {
  locationCode: string;
  sku: string;
  lotNo: string;
  qtyOnHand: number;
  qtyAllocated: number;
  ledgerOnHand: number;
  ledgerAllocated: number;
  lastOnHandAfter: number | null;
}

/**
 * The inventory ledger: every operation that changes stock appends its entries in its own transaction, so
 * a stock row's balance is always the sum of its entries; the entries name the cause, the document and the
 * caller. Each test works in a tenant of its own.
 */
describe('inventory ledger', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let admin: string;
  let reference = 0;

  beforeAll(async () => {
    ctx = await createTestContext('stock-ledger');
    gateway = await ctx.startGateway();
    admin = await loginAs(gateway.url, TEST_ADMIN.email, TEST_ADMIN.password);
  });
  afterAll(() => ctx.close());

  /** A tenant with warehouse WH1, locations A-01 and B-01, items PLAIN and LOT (lot-tracked), a customer and a key. */
  async function tenant(sandbox = false) {
    const { tenant } = sandbox ? await createSandboxTenant(ctx) : await createTenantWithWarehouse(ctx);
    await createMasterData(ctx, tenant.id, {
      items: [{ sku: 'PLAIN' }, { sku: 'LOT', tracking: 'lot' }],
      partners: [{ code: 'CUST', type: 'customer' }],
      locations: ['A-01', 'B-01'].map((code) => ({ warehouseCode: 'WH1', code })),
    });
    const key = await createApiKey(ctx, { tenantId: tenant.id });
    return { tenantId: tenant.id, key: key.rawKey, keyId: key.id };
  }

  const integration = (key: string, method: string, path: string, body?: unknown) =>
    request(gateway.url, method, `${BASE}${path}`, { body, headers: { 'x-api-key': key } });
  const staff = (tenantId: string, method: string, path: string, body?: unknown) =>
    request(gateway.url, method, `${API}${path}${path.includes('?') ? '&' : '?'}tenantId=${tenantId}`, {
      token: admin,
      body,
    });

  async function receive(key: string, lines: { sku: string; qty: number; locationCode: string; lotNo?: string }[]) {
    const response = await integration(key, 'POST', '/grn', {
      warehouseCode: 'WH1',
      lines: lines.map((line) => ({ uomCode: 'EA', ...line })),
    });
    expect(response.status).toBe(201);
    return String(response.body.data.grnNo);
  }

  async function order(key: string, lines: { sku: string; qty: number }[]): Promise<string> {
    const response = await integration(key, 'POST', '/orders', {
      warehouseCode: 'WH1',
      customerCode: 'CUST',
      referenceNo: `LEDGER-${++reference}`,
      lines: lines.map((line, n) => ({ lineNo: n + 1, sku: line.sku, uomCode: 'EA', qtyOrdered: line.qty })),
    });
    expect(response.status).toBe(201);
    return String(response.body.data.orderNo);
  }

  /** Every stock row of the tenant with its balance and its ledger's sum. */
  async function reconcile(tenantId: string): Promise<Reconciled[]> {
    return ctx.runtime.db.sequelize.query<Reconciled>(
      `SELECT l.code AS "locationCode", i.sku, s.lot_no AS "lotNo",
              s.qty_on_hand::float8 AS "qtyOnHand", s.qty_allocated::float8 AS "qtyAllocated",
              (COALESCE(c.qty_on_hand, 0) + COALESCE(sum(m.qty_on_hand_delta), 0))::float8 AS "ledgerOnHand",
              (COALESCE(c.qty_allocated, 0) + COALESCE(sum(m.qty_allocated_delta), 0))::float8 AS "ledgerAllocated",
              (SELECT qty_on_hand_after::float8 FROM stock_movements x WHERE x.stock_row_id = s.id
                ORDER BY x.at DESC, x.id DESC LIMIT 1) AS "lastOnHandAfter"
         FROM stock_rows s JOIN items i ON i.id = s.item_id JOIN locations l ON l.id = s.location_id
         LEFT JOIN LATERAL (SELECT * FROM stock_checkpoints c WHERE c.stock_row_id = s.id ORDER BY c.at DESC LIMIT 1) c ON true
         LEFT JOIN stock_movements m ON m.stock_row_id = s.id AND (c.at IS NULL OR m.at > c.at)
        WHERE s.tenant_id = $1
        GROUP BY s.id, l.code, i.sku, c.qty_on_hand, c.qty_allocated
        ORDER BY l.code, i.sku, s.lot_no`,
      { bind: [tenantId], type: QueryTypes.SELECT },
    );
  }

  function expectBalanced(rows: Reconciled[]) {
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect({
        row: `${row.locationCode}/${row.sku}/${row.lotNo}`,
        onHand: row.ledgerOnHand,
        allocated: row.ledgerAllocated,
      }).toEqual({
        row: `${row.locationCode}/${row.sku}/${row.lotNo}`,
        onHand: row.qtyOnHand,
        allocated: row.qtyAllocated,
      });
      if (row.lastOnHandAfter !== null) expect(row.lastOnHandAfter).toBe(row.qtyOnHand);
    }
  }

  async function movements(key: string, query: string) {
    const response = await integration(key, 'GET', `/stock/movements?${query}`);
    expect(response.status).toBe(200);
    return response.body as unknown as { data: JsonNode[]; nextCursor: string | null };
  }

  it('when stock goes through receipt, allocation, pick, shipment, adjustment, count and cancel, each location sums to its balance', async () => {
    const { tenantId, key, keyId } = await tenant();
    const grnNo = await receive(key, [
      { sku: 'PLAIN', qty: 10, locationCode: 'A-01' },
      { sku: 'LOT', qty: 4, locationCode: 'B-01', lotNo: 'L1' },
    ]);
    const shipped = await order(key, [{ sku: 'PLAIN', qty: 3 }]);
    expect((await staff(tenantId, 'POST', `/orders/${shipped}/allocate`, {})).status).toBe(200);
    expect((await staff(tenantId, 'POST', `/orders/${shipped}/release`, {})).status).toBe(200);
    const tasks = (await staff(tenantId, 'GET', `/orders/${shipped}`)).body.pickTasks as unknown as { id: string }[];
    expect((await staff(tenantId, 'POST', `/pick-tasks/${tasks[0]!.id}/confirm`, { qtyPicked: 2 })).status).toBe(200);
    const shipment = await staff(tenantId, 'POST', `/orders/${shipped}/ship`, {});
    expect(shipment.status).toBe(201);
    const adjusted = await staff(tenantId, 'POST', '/stock/adjustments', {
      warehouseCode: 'WH1',
      locationCode: 'B-01',
      sku: 'LOT',
      lotNo: 'L1',
      qtyDelta: -1.5,
      reason: 'damaged',
    });
    expect(adjusted.status).toBe(201);
    const counted = await staff(tenantId, 'POST', '/cycle-counts', {
      warehouseCode: 'WH1',
      locationCode: 'A-01',
      sku: 'PLAIN',
      countedQty: 9,
    });
    expect(counted.status).toBe(201);
    const cancelled = await order(key, [{ sku: 'PLAIN', qty: 4 }]);
    expect((await staff(tenantId, 'POST', `/orders/${cancelled}/allocate`, {})).status).toBe(200);
    expect((await integration(key, 'POST', `/orders/${cancelled}/cancel`, {})).status).toBe(200);

    expectBalanced(await reconcile(tenantId));
    const page = await movements(key, 'sku=PLAIN&limit=500');
    expect(
      page.data.map((m) => [m.cause, m.documentNo, m.qtyOnHandDelta, m.qtyAllocatedDelta, m.qtyOnHandAfter]),
    ).toEqual([
      ['grn', grnNo, 10, 0, 10],
      ['allocation', shipped, 0, 3, 10],
      ['pick', shipped, -2, -2, 8],
      ['shipment', shipment.body.shipmentNo, 0, -1, 8],
      ['cycle_count', counted.body.id, 1, 0, 9],
      ['allocation', cancelled, 0, 4, 9],
      ['release', cancelled, 0, -4, 9],
    ]);
    expect(page.data[0]).toMatchObject({
      warehouseCode: 'WH1',
      locationCode: 'A-01',
      sku: 'PLAIN',
      lotNo: null,
      caller: { type: 'api_key', id: keyId },
    });
    expect(page.data[1]!.caller).toMatchObject({ type: 'user' });
    // A location code filters every item's entries at it, in its warehouse or any; an unknown one finds none.
    const atB01 = await movements(key, 'locationCode=B-01&limit=500');
    expect(atB01.data.length).toBeGreaterThan(0);
    expect(new Set(atB01.data.map((m) => `${String(m.locationCode)}/${String(m.sku)}`))).toEqual(new Set(['B-01/LOT']));
    expect((await movements(key, 'warehouseCode=WH1&locationCode=B-01&limit=500')).data).toEqual(atB01.data);
    expect((await movements(key, 'locationCode=Z-99')).data).toEqual([]);
    const lot = await movements(key, 'sku=LOT&lotNo=L1&cause=adjustment');
    expect(lot.data).toEqual([
      expect.objectContaining({
        cause: 'adjustment',
        documentNo: adjusted.body.id,
        qtyOnHandDelta: -1.5,
        qtyOnHandAfter: 2.5,
      }),
    ]);
  });

  it('when allocations, adjustments and receipts of one row run at once, every row still sums to its balance', async () => {
    const { tenantId, key } = await tenant();
    await receive(key, [{ sku: 'PLAIN', qty: 20, locationCode: 'A-01' }]);
    const orders = await Promise.all(Array.from({ length: 6 }, () => order(key, [{ sku: 'PLAIN', qty: 4 }])));

    const answers = await Promise.all([
      ...orders.map((orderNo) => staff(tenantId, 'POST', `/orders/${orderNo}/allocate`, {})),
      ...[3, -2, 5].map((qtyDelta) =>
        staff(tenantId, 'POST', '/stock/adjustments', {
          warehouseCode: 'WH1',
          locationCode: 'A-01',
          sku: 'PLAIN',
          qtyDelta,
          reason: 'concurrent',
        }),
      ),
      receive(key, [{ sku: 'PLAIN', qty: 7, locationCode: 'A-01' }]),
    ]);

    expectBalanced(await reconcile(tenantId));
    // An adjustment may be refused (below allocated) depending on the order the locks were taken in.
    const adjusted = answers
      .slice(orders.length, orders.length + 3)
      .reduce(
        (sum, answer) => sum + (typeof answer === 'object' && answer.status === 201 ? Number(answer.body.qtyDelta) : 0),
        0,
      );
    const [row] = await reconcile(tenantId);
    expect(row!.qtyOnHand).toBe(20 + 7 + adjusted);
  });

  it('when orders come in by a bulk job and are allocated and cancelled, every row still sums to its balance', async () => {
    const { tenantId, key } = await tenant();
    await ctx.startIngestWorker();
    await receive(key, [
      { sku: 'PLAIN', qty: 12, locationCode: 'A-01' },
      { sku: 'PLAIN', qty: 5, locationCode: 'B-01' },
    ]);
    const bulk = await integration(key, 'POST', '/orders/bulk', {
      orders: Array.from({ length: 3 }, (_unused, n) => ({
        warehouseCode: 'WH1',
        customerCode: 'CUST',
        referenceNo: `BULK-${n}`,
        lines: [{ lineNo: 1, sku: 'PLAIN', uomCode: 'EA', qtyOrdered: 5 }],
      })),
    });
    expect(bulk.status).toBe(200);
    const orderNos = (bulk.body.data as unknown as { data: { orderNo: string } }[]).map(
      (result) => result.data.orderNo,
    );

    for (const orderNo of orderNos) await staff(tenantId, 'POST', `/orders/${orderNo}/allocate`, {});
    await integration(key, 'POST', `/orders/${orderNos[0]}/cancel`, {});

    expectBalanced(await reconcile(tenantId));
  });

  it('when a sandbox simulation changes stock, its entries have the cause simulation and the document it made', async () => {
    const { tenantId, key, keyId } = await tenant(true);
    const simulated = await integration(key, 'POST', '/simulations', {
      type: 'stock.adjusted',
      sku: 'PLAIN',
      locationCode: 'A-01',
      qtyDelta: 6,
    });
    expect(simulated.status).toBe(202);

    expectBalanced(await reconcile(tenantId));
    const page = await movements(key, 'sku=PLAIN');
    expect(page.data).toEqual([
      expect.objectContaining({ cause: 'simulation', qtyOnHandDelta: 6, caller: { type: 'api_key', id: keyId } }),
    ]);
  });

  it('when movements are paged and filtered by time, each page continues where the last stopped', async () => {
    const { key } = await tenant();
    for (let n = 1; n <= 5; n += 1) await receive(key, [{ sku: 'PLAIN', qty: n, locationCode: 'A-01' }]);
    const all = await movements(key, 'sku=PLAIN');
    const seen: JsonNode[] = [];
    let query = 'sku=PLAIN&limit=2';
    for (;;) {
      const page = await movements(key, query);
      seen.push(...page.data);
      if (!page.nextCursor) break;
      query = `sku=PLAIN&limit=2&cursor=${page.nextCursor}`;
    }
    expect(seen).toEqual(all.data);
    expect(seen.map((m) => m.qtyOnHandAfter)).toEqual([1, 3, 6, 10, 15]);

    const since = String(all.data[2]!.at);
    const until = String(all.data[4]!.at);
    const window = await movements(key, `sku=PLAIN&since=${since}&until=${until}`);
    expect(window.data.map((m) => m.qtyOnHandAfter)).toEqual([6, 10]);

    // With since and a cursor, the later of the two is where the page starts.
    const fromSecond = `sku=PLAIN&since=${String(all.data[1]!.at)}&limit=2`;
    const sincePage = await movements(key, fromSecond);
    const afterCursor = await movements(key, `${fromSecond}&cursor=${sincePage.nextCursor}`);
    expect([...sincePage.data, ...afterCursor.data].map((m) => m.qtyOnHandAfter)).toEqual([3, 6, 10, 15]);
    const firstPage = await movements(key, 'sku=PLAIN&limit=1');
    const sinceAfterCursor = await movements(
      key,
      `sku=PLAIN&since=${String(all.data[3]!.at)}&cursor=${firstPage.nextCursor}`,
    );
    expect(sinceAfterCursor.data.map((m) => m.qtyOnHandAfter)).toEqual([10, 15]);

    // Every item of the tenant (its own index), paged the same way.
    const tenantWide: JsonNode[] = [];
    for (let cursor: string | null = ''; cursor !== null;) {
      const page = await movements(key, `limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      tenantWide.push(...page.data);
      cursor = page.nextCursor;
    }
    expect(tenantWide).toEqual(all.data);
  });

  it('when stock is asked for asOf a time, it answers the balances of that moment in the inquiry shape', async () => {
    const { tenantId, key } = await tenant();
    await receive(key, [{ sku: 'PLAIN', qty: 10, locationCode: 'A-01' }]);
    const first = await ctx.runtime.db.sequelize.query<{ now: string }>(
      'SELECT to_char(clock_timestamp() AT TIME ZONE \'UTC\', \'YYYY-MM-DD"T"HH24:MI:SS.US"Z"\') AS now',
      { type: QueryTypes.SELECT },
    );
    const allocatedOrder = await order(key, [{ sku: 'PLAIN', qty: 4 }]);
    await staff(tenantId, 'POST', `/orders/${allocatedOrder}/allocate`, {});
    await receive(key, [{ sku: 'PLAIN', qty: 2, locationCode: 'B-01' }]);
    const [second] = await ctx.runtime.db.sequelize.query<{ now: string }>(
      'SELECT to_char(clock_timestamp() AT TIME ZONE \'UTC\', \'YYYY-MM-DD"T"HH24:MI:SS.US"Z"\') AS now',
      { type: QueryTypes.SELECT },
    );
    await staff(tenantId, 'POST', '/stock/adjustments', {
      warehouseCode: 'WH1',
      locationCode: 'A-01',
      sku: 'PLAIN',
      qtyDelta: -3,
      reason: 'later',
    });

    const before = await integration(key, 'GET', '/stock?sku=PLAIN&asOf=2020-01-01T00:00:00Z');
    const atFirst = await integration(key, 'GET', `/stock?sku=PLAIN&asOf=${first[0]!.now}`);
    const atSecond = await integration(key, 'GET', `/stock?sku=PLAIN&asOf=${second!.now}`);
    const today = await integration(key, 'GET', '/stock?sku=PLAIN');
    const now = await integration(key, 'GET', `/stock?sku=PLAIN&asOf=${new Date(Date.now() + 60_000).toISOString()}`);

    expect(before.body.data).toMatchObject({ sku: 'PLAIN', totalOnHand: 0, stocks: [] });
    expect(atFirst.body.data).toMatchObject({
      totalOnHand: 10,
      totalAllocated: 0,
      stocks: [{ locationCode: 'A-01', qtyOnHand: 10 }],
    });
    expect(atSecond.body.data).toMatchObject({
      totalOnHand: 12,
      totalAllocated: 4,
      totalAvailable: 8,
      stocks: [
        { locationCode: 'A-01', qtyOnHand: 10, qtyAllocated: 4, qtyAvailable: 6 },
        { locationCode: 'B-01', qtyOnHand: 2, qtyAllocated: 0, qtyAvailable: 2 },
      ],
    });
    expect(now.body.data).toEqual(today.body.data);
    expect(today.body.data).toMatchObject({ totalOnHand: 9 });
  });

  it('when a movements or asOf query is bad, it answers 400 and names what is wrong', async () => {
    const { key } = await tenant();
    const cases = await Promise.all([
      integration(key, 'GET', '/stock/movements?sku=NOPE'),
      integration(key, 'GET', '/stock/movements?warehouseCode=NOPE'),
      integration(key, 'GET', '/stock/movements?cause=theft'),
      integration(key, 'GET', '/stock/movements?cursor=bm9wZQ'),
      integration(key, 'GET', '/stock/movements?since=yesterday'),
      integration(key, 'GET', '/stock?sku=PLAIN&asOf=last-night'),
    ]);
    expect(cases.map((response) => [response.status, response.body.code])).toEqual([
      [400, 'REFERENCE_NOT_FOUND'],
      [400, 'REFERENCE_NOT_FOUND'],
      [400, 'VALIDATION_FAILED'],
      [400, 'VALIDATION_FAILED'],
      [400, 'VALIDATION_FAILED'],
      [400, 'VALIDATION_FAILED'],
    ]);
  });
});
