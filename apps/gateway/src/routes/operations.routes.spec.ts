import { QueryTypes } from 'sequelize';
import {
  createMasterData,
  createTenantWithWarehouse,
  createTestContext,
  createUser,
  loginAs,
  request,
  type JsonNode,
  TEST_ADMIN,
  type TestContext,
  type TestGateway,
} from '@wms/testing';

const API = '/api/v1';

interface Receipt {
  sku: string;
  qty: number;
  locationCode: string;
  lotNo?: string;
  expiryDate?: string;
}

/**
 * The warehouse operations through the gateway: allocate (FEFO, row-locked),
 * release, confirm picks, ship, stock adjustments and cycle counts, with the events each one appends.
 * Every test works in a tenant of its own, so its events and stock are its own.
 */
describe('warehouse operations', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let admin: string;
  let reference = 0;

  beforeAll(async () => {
    ctx = await createTestContext('operations');
    gateway = await ctx.startGateway();
    admin = await loginAs(gateway.url, TEST_ADMIN.email, TEST_ADMIN.password);
  });
  afterAll(() => ctx.close());

  const call = (method: string, path: string, tenantId: string | null, body?: unknown, token = admin) =>
    request(
      gateway.url,
      method,
      `${API}${path}${tenantId ? `${path.includes('?') ? '&' : '?'}tenantId=${tenantId}` : ''}`,
      { token, body },
    );
  const inquiry = async (tenantId: string, orderNo: string) => (await call('GET', `/orders/${orderNo}`, tenantId)).body;

  /** A tenant with warehouse WH1, locations, items (LOT is lot-tracked) and a customer. */
  async function tenantWithStock(
    receipts: Receipt[],
    extraLocations: { code: string; pickFace?: boolean; type?: string }[] = [],
  ) {
    const { tenant } = await createTenantWithWarehouse(ctx, undefined, 'WH1');
    const locations = [{ code: 'A-01' }, { code: 'B-01' }, ...extraLocations].map((location) => ({
      warehouseCode: 'WH1',
      ...location,
    }));
    await createMasterData(ctx, tenant.id, {
      items: [{ sku: 'PLAIN' }, { sku: 'OTHER' }, { sku: 'LOT', tracking: 'lot' }],
      partners: [{ code: 'CUST', type: 'customer' }],
      locations,
    });
    if (receipts.length) {
      await ctx.runtime.db.sequelize.transaction((transaction) =>
        ctx.services.grns.receive(
          { tenantId: tenant.id, transaction },
          { warehouseCode: 'WH1', lines: receipts.map((line) => ({ uomCode: 'EA', ...line })) },
        ),
      );
    }
    return tenant.id;
  }

  async function createOrder(tenantId: string, lines: { sku: string; qty: number }[]): Promise<string> {
    const [outcome] = await ctx.runtime.db.sequelize.transaction((transaction) =>
      ctx.services.orders.createOrders({ tenantId, transaction }, [
        {
          warehouseCode: 'WH1',
          customerCode: 'CUST',
          priority: 0,
          referenceNo: `OPS-${++reference}`,
          lines: lines.map((line, n) => ({ lineNo: n + 1, sku: line.sku, uomCode: 'EA', qtyOrdered: line.qty })),
        },
      ]),
    );
    if (!outcome?.ok) throw new Error('order not created');
    return outcome.data.orderNo as string;
  }

  async function eventsOf(tenantId: string, prefix = '') {
    return ctx.runtime.db.sequelize.query<{ event: string; data: JsonNode }>(
      'SELECT event, data FROM events WHERE tenant_id = $1 AND event LIKE $2 ORDER BY seq',
      { bind: [tenantId, `${prefix}%`], type: QueryTypes.SELECT },
    );
  }

  /** Stock rows of a sku as [location, lot, on hand, allocated], in location order. */
  async function rowsOf(tenantId: string, sku: string) {
    const rows = await ctx.runtime.db.sequelize.query<{
      location: string;
      lot: string;
      onHand: number;
      allocated: number;
    }>(
      `SELECT l.code AS location, s.lot_no AS lot, s.qty_on_hand::float8 AS "onHand", s.qty_allocated::float8 AS allocated
       FROM stock_rows s JOIN locations l ON l.id = s.location_id JOIN items i ON i.id = s.item_id
       WHERE s.tenant_id = $1 AND i.sku = $2 ORDER BY l.code, s.lot_no`,
      { bind: [tenantId, sku], type: QueryTypes.SELECT },
    );
    return rows.map((row) => [row.location, row.lot, row.onHand, row.allocated]);
  }

  const cancel = (tenantId: string, orderNo: string) =>
    ctx.runtime.db.sequelize.transaction((transaction) =>
      ctx.services.orders.cancel({ tenantId, transaction }, orderNo),
    );

  describe('the life of an order', () => {
    it('when an order is allocated, released, picked and shipped, the inquiry is right at each step and each step appends its event', async () => {
      const tenantId = await tenantWithStock([
        { sku: 'LOT', qty: 10, locationCode: 'A-01', lotNo: 'L1', expiryDate: '2030-01-01' },
        { sku: 'PLAIN', qty: 5, locationCode: 'B-01' },
      ]);
      const orderNo = await createOrder(tenantId, [
        { sku: 'LOT', qty: 4 },
        { sku: 'PLAIN', qty: 3 },
      ]);
      const opened = await inquiry(tenantId, orderNo);
      expect(opened).toMatchObject({
        status: 'open',
        summary: { totalOrdered: 7, totalAllocated: 0, totalPicked: 0, totalShipped: 0 },
      });
      const referenceNo = opened.referenceNo;

      // Allocate
      const allocated = await call('POST', `/orders/${orderNo}/allocate`, tenantId);
      expect(allocated.status).toBe(200);
      expect(allocated.body).toMatchObject({
        orderNo,
        status: 'allocated',
        pickTasks: [],
        summary: { totalOrdered: 7, totalAllocated: 7, totalPicked: 0, totalShipped: 0 },
      });
      expect(await rowsOf(tenantId, 'LOT')).toEqual([['A-01', 'L1', 10, 4]]);

      // Release
      const released = await call('POST', `/orders/${orderNo}/release`, tenantId);
      expect(released.status).toBe(200);
      expect(released.body.status).toBe('released');
      expect(released.body.pickTasks).toEqual([
        {
          id: expect.any(String),
          lineNo: 1,
          sku: 'LOT',
          locationCode: 'A-01',
          lotNo: 'L1',
          qty: 4,
          qtyPicked: 0,
          status: 'open',
        },
        {
          id: expect.any(String),
          lineNo: 2,
          sku: 'PLAIN',
          locationCode: 'B-01',
          lotNo: null,
          qty: 3,
          qtyPicked: 0,
          status: 'open',
        },
      ]);
      const [lotTask, plainTask] = released.body.pickTasks;

      // Pick: the first confirm leaves the order released, the last makes it picked.
      const first = await call('POST', `/pick-tasks/${lotTask.id}/confirm`, tenantId, {});
      expect(first.status).toBe(200);
      expect(first.body).toEqual({ ...lotTask, orderNo, qtyPicked: 4, status: 'picked', orderStatus: 'released' });
      expect((await inquiry(tenantId, orderNo)).summary).toEqual({
        totalOrdered: 7,
        totalAllocated: 7,
        totalPicked: 4,
        totalShipped: 0,
      });
      const last = await call('POST', `/pick-tasks/${plainTask.id}/confirm`, tenantId, { qtyPicked: 3 });
      expect(last.body).toMatchObject({ status: 'picked', qtyPicked: 3, orderStatus: 'picked' });
      expect(await inquiry(tenantId, orderNo)).toMatchObject({
        status: 'picked',
        summary: { totalOrdered: 7, totalAllocated: 7, totalPicked: 7, totalShipped: 0 },
      });
      expect(await rowsOf(tenantId, 'LOT')).toEqual([['A-01', 'L1', 6, 0]]);
      expect(await rowsOf(tenantId, 'PLAIN')).toEqual([['B-01', '', 2, 0]]);

      // Ship
      const shipped = await call('POST', `/orders/${orderNo}/ship`, tenantId, { carrier: 'DHL', trackingNo: '1Z999' });
      expect(shipped.status).toBe(201);
      expect(shipped.body).toEqual({
        id: expect.any(String),
        shipmentNo: expect.stringMatching(/^SHP-\d{8}-\d{6}$/),
        orderNo,
        warehouseCode: 'WH1',
        carrier: 'DHL',
        trackingNo: '1Z999',
        shippedAt: expect.any(String),
        lines: [
          { lineNo: 1, sku: 'LOT', qtyShipped: 4 },
          { lineNo: 2, sku: 'PLAIN', qtyShipped: 3 },
        ],
      });
      const final = await inquiry(tenantId, orderNo);
      expect(final).toMatchObject({
        status: 'shipped',
        summary: { totalOrdered: 7, totalAllocated: 7, totalPicked: 7, totalShipped: 7 },
      });
      expect(final.lines.map((line) => line.qtyShipped)).toEqual([4, 3]);

      // Every event, with its data as subscribers receive it, in order.
      expect(await eventsOf(tenantId, 'order.')).toEqual([
        {
          event: 'order.allocated',
          data: {
            tenantId,
            orderNo,
            referenceNo,
            warehouseCode: 'WH1',
            lines: [
              { lineNo: 1, sku: 'LOT', qtyOrdered: 4, qtyAllocated: 4 },
              { lineNo: 2, sku: 'PLAIN', qtyOrdered: 3, qtyAllocated: 3 },
            ],
          },
        },
        {
          event: 'order.released',
          data: {
            tenantId,
            orderNo,
            referenceNo,
            warehouseCode: 'WH1',
            pickTasks: [
              { id: lotTask.id, sku: 'LOT', locationCode: 'A-01', lotNo: 'L1', qty: 4 },
              { id: plainTask.id, sku: 'PLAIN', locationCode: 'B-01', lotNo: null, qty: 3 },
            ],
          },
        },
        {
          event: 'order.shipped',
          data: {
            tenantId,
            orderNo,
            referenceNo,
            shipmentNo: shipped.body.shipmentNo,
            trackingNo: '1Z999',
            carrier: 'DHL',
            warehouseCode: 'WH1',
            lines: [
              { lineNo: 1, sku: 'LOT', uomCode: 'EA', lotNo: 'L1', qty: 4 },
              { lineNo: 2, sku: 'PLAIN', uomCode: 'EA', lotNo: null, qty: 3 },
            ],
          },
        },
      ]);
    });

    it('when an order is shipped twice, or shipped before it is picked, it answers 409 INVALID_STATE naming the state', async () => {
      const tenantId = await tenantWithStock([{ sku: 'PLAIN', qty: 5, locationCode: 'A-01' }]);
      const orderNo = await createOrder(tenantId, [{ sku: 'PLAIN', qty: 2 }]);

      const early = await call('POST', `/orders/${orderNo}/ship`, tenantId, {});
      await call('POST', `/orders/${orderNo}/allocate`, tenantId);
      const [task] = (await call('POST', `/orders/${orderNo}/release`, tenantId)).body.pickTasks;
      await call('POST', `/pick-tasks/${task.id}/confirm`, tenantId);
      const once = await call('POST', `/orders/${orderNo}/ship`, tenantId);
      const twice = await call('POST', `/orders/${orderNo}/ship`, tenantId);
      const reallocate = await call('POST', `/orders/${orderNo}/allocate`, tenantId);

      expect(early.status).toBe(409);
      expect(early.body).toEqual({
        statusCode: 409,
        error: 'Conflict',
        code: 'INVALID_STATE',
        message: `Order ${orderNo} is open and cannot be shipped`,
        requestId: expect.any(String),
      });
      expect(once.status).toBe(201);
      expect(once.body.trackingNo).toBeNull();
      expect(twice.status).toBe(409);
      expect(twice.body.message).toBe(`Order ${orderNo} is shipped and cannot be shipped`);
      expect(reallocate.status).toBe(409);
      expect(reallocate.body.message).toBe(`Order ${orderNo} is shipped and cannot be allocated`);
      expect((await eventsOf(tenantId, 'order.shipped')).length).toBe(1);
    });
  });

  describe('allocation', () => {
    it('when stock allows part of an order, it stays open and cannot be released; a second allocate tops it up into one pick task', async () => {
      const tenantId = await tenantWithStock([{ sku: 'PLAIN', qty: 3, locationCode: 'A-01' }]);
      const orderNo = await createOrder(tenantId, [{ sku: 'PLAIN', qty: 5 }]);

      const partial = await call('POST', `/orders/${orderNo}/allocate`, tenantId);
      const refused = await call('POST', `/orders/${orderNo}/release`, tenantId);
      await call('POST', '/stock/adjustments', tenantId, {
        warehouseCode: 'WH1',
        locationCode: 'A-01',
        sku: 'PLAIN',
        qtyDelta: 4,
        reason: 'found',
      });
      const topped = await call('POST', `/orders/${orderNo}/allocate`, tenantId);
      const nothingMore = await call('POST', `/orders/${orderNo}/allocate`, tenantId);
      const released = await call('POST', `/orders/${orderNo}/release`, tenantId);

      expect(partial.body).toMatchObject({ status: 'open', summary: { totalAllocated: 3 } });
      expect(refused.status).toBe(409);
      expect(refused.body.message).toBe(`Order ${orderNo} is open and cannot be released until it is fully allocated`);
      expect(topped.body).toMatchObject({ status: 'allocated', summary: { totalAllocated: 5 } });
      expect(nothingMore.status).toBe(200);
      expect(released.body.pickTasks.map((task) => [task.locationCode, task.qty])).toEqual([['A-01', 5]]);
      expect((await eventsOf(tenantId, 'order.allocated')).map((event) => event.data.lines[0].qtyAllocated)).toEqual([
        3, 5,
      ]);
      expect(await rowsOf(tenantId, 'PLAIN')).toEqual([['A-01', '', 7, 5]]);
    });

    it('when nothing is available, allocate answers the unchanged open order and appends no event', async () => {
      const tenantId = await tenantWithStock([]);
      const orderNo = await createOrder(tenantId, [{ sku: 'PLAIN', qty: 2 }]);

      const response = await call('POST', `/orders/${orderNo}/allocate`, tenantId);

      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ status: 'open', summary: { totalAllocated: 0 } });
      expect(await eventsOf(tenantId, 'order.')).toEqual([]);
    });

    it('when lots compete, allocation takes the earliest expiry first, lots without expiry last, then pick faces, then location code', async () => {
      const tenantId = await tenantWithStock(
        [
          { sku: 'LOT', qty: 5, locationCode: 'A-04', lotNo: 'NOEXP' },
          { sku: 'LOT', qty: 5, locationCode: 'A-02', lotNo: 'LATE', expiryDate: '2031-01-01' },
          { sku: 'LOT', qty: 2, locationCode: 'A-01', lotNo: 'EARLY', expiryDate: '2030-01-01' },
          { sku: 'LOT', qty: 2, locationCode: 'A-03', lotNo: 'EARLY', expiryDate: '2030-01-01' },
          { sku: 'LOT', qty: 1, locationCode: 'C-02', lotNo: 'MID', expiryDate: '2030-06-01' },
          { sku: 'LOT', qty: 1, locationCode: 'C-01', lotNo: 'MID', expiryDate: '2030-06-01' },
        ],
        [
          { code: 'A-02' },
          { code: 'A-03', pickFace: true },
          { code: 'A-04', pickFace: true },
          { code: 'C-01', pickFace: true },
          { code: 'C-02', pickFace: true },
        ],
      );
      const first = await createOrder(tenantId, [{ sku: 'LOT', qty: 10 }]);
      const second = await createOrder(tenantId, [{ sku: 'LOT', qty: 3 }]);

      await call('POST', `/orders/${first}/allocate`, tenantId);
      const firstTasks = (await call('POST', `/orders/${first}/release`, tenantId)).body.pickTasks;
      await call('POST', `/orders/${second}/allocate`, tenantId);
      const secondTasks = (await call('POST', `/orders/${second}/release`, tenantId)).body.pickTasks;

      // EARLY at the pick face A-03 before EARLY at A-01; MID at C-01 before C-02; LATE only in part; NOEXP untouched.
      const firstEvents = await eventsOf(tenantId, 'order.released');
      expect(firstEvents[0]!.data.pickTasks.map((task) => task.id)).toEqual(firstTasks.map((task) => task.id));
      expect(await rowsOf(tenantId, 'LOT')).toEqual([
        ['A-01', 'EARLY', 2, 2],
        ['A-02', 'LATE', 5, 5],
        ['A-03', 'EARLY', 2, 2],
        ['A-04', 'NOEXP', 5, 2],
        ['C-01', 'MID', 1, 1],
        ['C-02', 'MID', 1, 1],
      ]);
      expect(firstTasks.map((task) => [task.locationCode, task.lotNo, task.qty])).toEqual([
        ['A-01', 'EARLY', 2],
        ['A-02', 'LATE', 4],
        ['A-03', 'EARLY', 2],
        ['C-01', 'MID', 1],
        ['C-02', 'MID', 1],
      ]);
      // The second order finds the rest of LATE before the lot without expiry.
      expect(secondTasks.map((task) => [task.locationCode, task.lotNo, task.qty])).toEqual([
        ['A-02', 'LATE', 1],
        ['A-04', 'NOEXP', 2],
      ]);
    });

    it('when stock is past its expiry date or held in a quarantine location, allocation passes it over', async () => {
      const tenantId = await tenantWithStock(
        [
          { sku: 'LOT', qty: 3, locationCode: 'A-01', lotNo: 'EXPIRED', expiryDate: '2020-01-01' },
          { sku: 'LOT', qty: 3, locationCode: 'Q-01', lotNo: 'HELD', expiryDate: '2030-01-01' },
          { sku: 'LOT', qty: 2, locationCode: 'B-01', lotNo: 'GOOD', expiryDate: '2031-01-01' },
        ],
        [{ code: 'Q-01', type: 'quarantine' }],
      );
      const orderNo = await createOrder(tenantId, [{ sku: 'LOT', qty: 5 }]);

      const response = await call('POST', `/orders/${orderNo}/allocate`, tenantId);

      expect(response.body).toMatchObject({ status: 'open', summary: { totalAllocated: 2 } });
      expect(await rowsOf(tenantId, 'LOT')).toEqual([
        ['A-01', 'EXPIRED', 3, 0],
        ['B-01', 'GOOD', 2, 2],
        ['Q-01', 'HELD', 3, 0],
      ]);
    });

    it('when one-unit orders are allocated in turn, a pick face wins an expiry tie and location code a pick-face tie', async () => {
      const tenantId = await tenantWithStock(
        [
          { sku: 'LOT', qty: 1, locationCode: 'A-01', lotNo: 'EARLY', expiryDate: '2030-01-01' },
          { sku: 'LOT', qty: 1, locationCode: 'A-03', lotNo: 'EARLY', expiryDate: '2030-01-01' },
          { sku: 'LOT', qty: 1, locationCode: 'C-01', lotNo: 'MID', expiryDate: '2030-06-01' },
          { sku: 'LOT', qty: 1, locationCode: 'C-02', lotNo: 'MID', expiryDate: '2030-06-01' },
        ],
        [
          { code: 'A-03', pickFace: true },
          { code: 'C-01', pickFace: true },
          { code: 'C-02', pickFace: true },
        ],
      );
      const orders = [];
      for (let n = 0; n < 4; n++) orders.push(await createOrder(tenantId, [{ sku: 'LOT', qty: 1 }]));

      const taken = [];
      for (const orderNo of orders) {
        await call('POST', `/orders/${orderNo}/allocate`, tenantId);
        taken.push((await call('POST', `/orders/${orderNo}/release`, tenantId)).body.pickTasks[0].locationCode);
      }

      expect(taken).toEqual(['A-03', 'A-01', 'C-01', 'C-02']);
    });

    it('when 20 orders are allocated at once over stock for 10, exactly 10 units are allocated and no row is over-allocated', async () => {
      const tenantId = await tenantWithStock(
        [
          { sku: 'PLAIN', qty: 3, locationCode: 'A-01' },
          { sku: 'PLAIN', qty: 3, locationCode: 'B-01' },
          { sku: 'PLAIN', qty: 4, locationCode: 'C-01' },
        ],
        [{ code: 'C-01' }],
      );
      const orders: string[] = [];
      for (let n = 0; n < 20; n++) orders.push(await createOrder(tenantId, [{ sku: 'PLAIN', qty: 2 }]));

      const responses = await Promise.all(
        orders.map((orderNo) => call('POST', `/orders/${orderNo}/allocate`, tenantId)),
      );

      expect(responses.map((response) => response.status)).toEqual(orders.map(() => 200));
      const totals = responses.map((response) => Number(response.body.summary.totalAllocated));
      expect(totals.reduce((sum, qty) => sum + qty, 0)).toBe(10);
      expect(await rowsOf(tenantId, 'PLAIN')).toEqual([
        ['A-01', '', 3, 3],
        ['B-01', '', 3, 3],
        ['C-01', '', 4, 4],
      ]);
      const stock = await ctx.services.stock.inquire(tenantId, { sku: 'PLAIN' });
      expect(stock).toMatchObject({ totalOnHand: 10, totalAllocated: 10, totalAvailable: 0 });
      expect(stock.stocks.every((row) => row.qtyAvailable >= 0)).toBe(true);
      const allocatedEvents = await eventsOf(tenantId, 'order.allocated');
      expect(allocatedEvents.length).toBe(totals.filter((qty) => qty > 0).length);
      expect(responses.filter((response) => String(response.body.status) === 'allocated').length).toBe(
        totals.filter((qty) => qty === 2).length,
      );
    });
  });

  describe('picking', () => {
    it('when a pick comes up short, the difference stays allocated until the order ships, which gives it back', async () => {
      const tenantId = await tenantWithStock([{ sku: 'PLAIN', qty: 10, locationCode: 'A-01' }]);
      const orderNo = await createOrder(tenantId, [{ sku: 'PLAIN', qty: 5 }]);
      await call('POST', `/orders/${orderNo}/allocate`, tenantId);
      const [task] = (await call('POST', `/orders/${orderNo}/release`, tenantId)).body.pickTasks;

      const short = await call('POST', `/pick-tasks/${task.id}/confirm`, tenantId, { qtyPicked: 3 });
      const afterPick = await rowsOf(tenantId, 'PLAIN');
      const shipped = await call('POST', `/orders/${orderNo}/ship`, tenantId, { trackingNo: 'T-1' });

      expect(short.body).toMatchObject({ qty: 5, qtyPicked: 3, status: 'picked', orderStatus: 'picked' });
      expect(afterPick).toEqual([['A-01', '', 7, 2]]);
      expect(shipped.body.lines).toEqual([{ lineNo: 1, sku: 'PLAIN', qtyShipped: 3 }]);
      expect(await rowsOf(tenantId, 'PLAIN')).toEqual([['A-01', '', 7, 0]]);
      expect((await inquiry(tenantId, orderNo)).summary).toEqual({
        totalOrdered: 5,
        totalAllocated: 3,
        totalPicked: 3,
        totalShipped: 3,
      });
    });

    it('when a confirm asks for more than the task, nothing, a task twice or an unknown task, it is refused and nothing changes', async () => {
      const tenantId = await tenantWithStock([{ sku: 'PLAIN', qty: 10, locationCode: 'A-01' }]);
      const orderNo = await createOrder(tenantId, [{ sku: 'PLAIN', qty: 5 }]);
      await call('POST', `/orders/${orderNo}/allocate`, tenantId);
      const [task] = (await call('POST', `/orders/${orderNo}/release`, tenantId)).body.pickTasks;

      const over = await call('POST', `/pick-tasks/${task.id}/confirm`, tenantId, { qtyPicked: 6 });
      const zero = await call('POST', `/pick-tasks/${task.id}/confirm`, tenantId, { qtyPicked: 0 });
      const unknownField = await call('POST', `/pick-tasks/${task.id}/confirm`, tenantId, { qty: 1 });
      const unknownTask = await call('POST', '/pick-tasks/00000000-0000-4000-8000-000000000000/confirm', tenantId);
      const malformed = await call('POST', '/pick-tasks/not-a-task/confirm', tenantId);
      const before = await rowsOf(tenantId, 'PLAIN');
      const once = await call('POST', `/pick-tasks/${task.id}/confirm`, tenantId);
      const twice = await call('POST', `/pick-tasks/${task.id}/confirm`, tenantId);

      expect([over.status, zero.status, unknownField.status]).toEqual([400, 400, 400]);
      expect(over.body.message).toBe("qtyPicked 6 is more than the task's qty 5");
      expect(unknownTask.status).toBe(404);
      expect(malformed.status).toBe(404);
      expect(before).toEqual([['A-01', '', 10, 5]]);
      expect(once.status).toBe(200);
      expect(twice.status).toBe(409);
      expect(twice.body.message).toBe(`Pick task ${task.id} is picked and cannot be confirmed`);
      expect(await rowsOf(tenantId, 'PLAIN')).toEqual([['A-01', '', 5, 0]]);
    });

    it('when a released order is cancelled, its reservations are released and stock is whole again', async () => {
      const tenantId = await tenantWithStock([
        { sku: 'PLAIN', qty: 4, locationCode: 'A-01' },
        { sku: 'PLAIN', qty: 4, locationCode: 'B-01' },
      ]);
      const orderNo = await createOrder(tenantId, [{ sku: 'PLAIN', qty: 6 }]);
      await call('POST', `/orders/${orderNo}/allocate`, tenantId);
      await call('POST', `/orders/${orderNo}/release`, tenantId);

      await cancel(tenantId, orderNo);

      expect(await rowsOf(tenantId, 'PLAIN')).toEqual([
        ['A-01', '', 4, 0],
        ['B-01', '', 4, 0],
      ]);
      const order = await inquiry(tenantId, orderNo);
      expect(order.pickTasks.map((task) => task.status)).toEqual(['cancelled', 'cancelled']);
      expect(order.summary).toEqual({ totalOrdered: 6, totalAllocated: 0, totalPicked: 0, totalShipped: 0 });
      expect((await eventsOf(tenantId, 'order.cancelled'))[0]!.data).toEqual({
        tenantId,
        orderNo,
        referenceNo: expect.any(String),
        previousStatus: 'released',
      });
    });

    it('when an order is cancelled after a full and a short pick, picked stock goes back where it was and the short remainder is released', async () => {
      const tenantId = await tenantWithStock([
        { sku: 'PLAIN', qty: 4, locationCode: 'A-01' },
        { sku: 'PLAIN', qty: 4, locationCode: 'B-01' },
      ]);
      const orderNo = await createOrder(tenantId, [{ sku: 'PLAIN', qty: 7 }]);
      await call('POST', `/orders/${orderNo}/allocate`, tenantId);
      const [fromA, fromB] = (await call('POST', `/orders/${orderNo}/release`, tenantId)).body.pickTasks;
      await call('POST', `/pick-tasks/${fromA.id}/confirm`, tenantId);
      await call('POST', `/pick-tasks/${fromB.id}/confirm`, tenantId, { qtyPicked: 1 });
      const picked = await rowsOf(tenantId, 'PLAIN');

      await cancel(tenantId, orderNo);

      expect(picked).toEqual([
        ['A-01', '', 0, 0],
        ['B-01', '', 3, 2],
      ]);
      expect(await rowsOf(tenantId, 'PLAIN')).toEqual([
        ['A-01', '', 4, 0],
        ['B-01', '', 4, 0],
      ]);
      expect((await eventsOf(tenantId, 'order.cancelled'))[0]!.data.previousStatus).toBe('picked');
    });
  });

  describe('stock adjustments', () => {
    it('when stock is adjusted up at a key with no row, the row is created and stock.adjusted reports the new on hand', async () => {
      const tenantId = await tenantWithStock([]);

      const response = await call('POST', '/stock/adjustments', tenantId, {
        warehouseCode: 'WH1',
        locationCode: 'A-01',
        sku: 'LOT',
        lotNo: 'L9',
        qtyDelta: 5.5,
        reason: 'found in aisle',
      });

      expect(response.status).toBe(201);
      expect(response.body).toEqual({
        id: expect.any(String),
        warehouseCode: 'WH1',
        locationCode: 'A-01',
        sku: 'LOT',
        lotNo: 'L9',
        qtyDelta: 5.5,
        qtyOnHand: 5.5,
        qtyAllocated: 0,
        reason: 'found in aisle',
        createdAt: expect.any(String),
      });
      expect(await eventsOf(tenantId, 'stock.')).toEqual([
        {
          event: 'stock.adjusted',
          data: {
            tenantId,
            warehouseCode: 'WH1',
            locationCode: 'A-01',
            sku: 'LOT',
            lotNo: 'L9',
            qtyDelta: 5.5,
            qtyOnHand: 5.5,
            reason: 'found in aisle',
          },
        },
      ]);
    });

    it('when an adjustment would take on hand below allocated, it is refused with 409 and nothing changes', async () => {
      const tenantId = await tenantWithStock([{ sku: 'PLAIN', qty: 5, locationCode: 'A-01' }]);
      const orderNo = await createOrder(tenantId, [{ sku: 'PLAIN', qty: 4 }]);
      await call('POST', `/orders/${orderNo}/allocate`, tenantId);
      const body = { warehouseCode: 'WH1', locationCode: 'A-01', sku: 'PLAIN', reason: 'damaged' };

      const refused = await call('POST', '/stock/adjustments', tenantId, { ...body, qtyDelta: -2 });
      const noRow = await call('POST', '/stock/adjustments', tenantId, { ...body, locationCode: 'B-01', qtyDelta: -1 });
      const allowed = await call('POST', '/stock/adjustments', tenantId, { ...body, qtyDelta: -1 });

      expect(refused.status).toBe(409);
      expect(refused.body).toEqual({
        statusCode: 409,
        error: 'Conflict',
        code: 'BELOW_ALLOCATED',
        message:
          'Stock of item SKU PLAIN at A-01 has 5 on hand and 4 allocated; an adjustment of -2 would leave on hand below allocated',
        requestId: expect.any(String),
      });
      expect(noRow.status).toBe(409);
      expect(allowed.status).toBe(201);
      expect(allowed.body).toMatchObject({ qtyOnHand: 4, qtyAllocated: 4 });
      expect(await rowsOf(tenantId, 'PLAIN')).toEqual([['A-01', '', 4, 4]]);
      expect((await eventsOf(tenantId, 'stock.adjusted')).map((event) => event.data.qtyDelta)).toEqual([-1]);
    });

    it('when an adjustment is malformed or names what does not exist, it answers 400 naming the problem', async () => {
      const tenantId = await tenantWithStock([]);
      const base = { warehouseCode: 'WH1', locationCode: 'A-01', sku: 'PLAIN', qtyDelta: 1, reason: 'r' };

      const zero = await call('POST', '/stock/adjustments', tenantId, { ...base, qtyDelta: 0 });
      const missing = await call('POST', '/stock/adjustments', tenantId, { warehouseCode: 'WH1', extra: 1 });
      const location = await call('POST', '/stock/adjustments', tenantId, { ...base, locationCode: 'Z-99' });
      const sku = await call('POST', '/stock/adjustments', tenantId, { ...base, sku: 'NOPE' });
      const lotless = await call('POST', '/stock/adjustments', tenantId, { ...base, sku: 'LOT' });
      const lotted = await call('POST', '/stock/adjustments', tenantId, { ...base, lotNo: 'L1' });

      expect(zero.status).toBe(400);
      expect(missing.status).toBe(400);
      expect(missing.body.message).toBe('Request validation failed');
      expect(location.body).toMatchObject({ statusCode: 400, message: 'Location code Z-99 not found' });
      expect(sku.body).toMatchObject({ statusCode: 400, message: 'Item SKU NOPE not found' });
      expect(lotless.body).toMatchObject({
        statusCode: 400,
        message: 'item SKU LOT is lot-tracked, so lotNo is required',
      });
      expect(lotted.body).toMatchObject({
        statusCode: 400,
        message: 'item SKU PLAIN is not lot-tracked, so lotNo is not allowed',
      });
      expect(await eventsOf(tenantId)).toEqual([]);
    });
    it('when an adjustment would carry on hand past what the quantity column holds, it answers 400, not 500', async () => {
      const tenantId = await tenantWithStock([{ sku: 'PLAIN', qty: 5, locationCode: 'A-01' }]);
      await ctx.runtime.db.sequelize.query(
        `UPDATE stock_rows SET qty_on_hand = 99999999999000 WHERE tenant_id = :tenantId`,
        { replacements: { tenantId } },
      );
      const body = { warehouseCode: 'WH1', locationCode: 'A-01', sku: 'PLAIN', reason: 'found' };

      const overflow = await call('POST', '/stock/adjustments', tenantId, { ...body, qtyDelta: 1e12 });
      const fits = await call('POST', '/stock/adjustments', tenantId, { ...body, qtyDelta: 999 });

      expect(overflow.status).toBe(400);
      expect(overflow.body).toMatchObject({ statusCode: 400, message: 'Request validation failed' });
      expect(overflow.body.details).toEqual([
        { path: 'qtyDelta', message: expect.stringContaining('holds less than') },
      ]);
      expect(fits.status).toBe(201);
      expect(fits.body).toMatchObject({ qtyOnHand: 99999999999999 });
    });
  });

  describe('cycle counts', () => {
    it('when a count equals the system quantity, it is recorded and no event is appended', async () => {
      const tenantId = await tenantWithStock([{ sku: 'PLAIN', qty: 4, locationCode: 'A-01' }]);

      const response = await call('POST', '/cycle-counts', tenantId, {
        warehouseCode: 'WH1',
        locationCode: 'A-01',
        sku: 'PLAIN',
        countedQty: 4,
      });

      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({
        systemQty: 4,
        countedQty: 4,
        variance: 0,
        qtyAdjusted: 0,
        unresolvedQty: 0,
        qtyOnHand: 4,
        lotNo: null,
      });
      expect(await eventsOf(tenantId)).toEqual([]);
    });

    it('when a count differs, stock is adjusted to it and cyclecount.variance reports countedQty − systemQty', async () => {
      const tenantId = await tenantWithStock([{ sku: 'LOT', qty: 4, locationCode: 'A-01', lotNo: 'L1' }]);

      const response = await call('POST', '/cycle-counts', tenantId, {
        warehouseCode: 'WH1',
        locationCode: 'A-01',
        sku: 'LOT',
        lotNo: 'L1',
        countedQty: 6,
      });

      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({ systemQty: 4, countedQty: 6, variance: 2, qtyAdjusted: 2, qtyOnHand: 6 });
      expect(await rowsOf(tenantId, 'LOT')).toEqual([['A-01', 'L1', 6, 0]]);
      expect(await eventsOf(tenantId)).toEqual([
        {
          event: 'stock.adjusted',
          data: {
            tenantId,
            warehouseCode: 'WH1',
            locationCode: 'A-01',
            sku: 'LOT',
            lotNo: 'L1',
            qtyDelta: 2,
            qtyOnHand: 6,
            reason: 'cycle count',
          },
        },
        {
          event: 'cyclecount.variance',
          data: {
            tenantId,
            warehouseCode: 'WH1',
            locationCode: 'A-01',
            sku: 'LOT',
            lotNo: 'L1',
            systemQty: 4,
            countedQty: 6,
            variance: 2,
          },
        },
      ]);
    });

    it('when fewer are counted than are allocated, on hand comes down to allocated and the rest is recorded as unresolved', async () => {
      const tenantId = await tenantWithStock([{ sku: 'PLAIN', qty: 6, locationCode: 'A-01' }]);
      const orderNo = await createOrder(tenantId, [{ sku: 'PLAIN', qty: 4 }]);
      await call('POST', `/orders/${orderNo}/allocate`, tenantId);

      const response = await call('POST', '/cycle-counts', tenantId, {
        warehouseCode: 'WH1',
        locationCode: 'A-01',
        sku: 'PLAIN',
        countedQty: 1,
      });

      expect(response.body).toMatchObject({
        systemQty: 6,
        countedQty: 1,
        variance: -5,
        qtyAdjusted: -2,
        unresolvedQty: 3,
        qtyOnHand: 4,
      });
      expect(await rowsOf(tenantId, 'PLAIN')).toEqual([['A-01', '', 4, 4]]);
      expect((await eventsOf(tenantId, 'cyclecount.variance'))[0]!.data).toMatchObject({
        systemQty: 6,
        countedQty: 1,
        variance: -5,
      });
    });

    it('when a count finds stock where the system has no row, the row is created with the counted quantity', async () => {
      const tenantId = await tenantWithStock([]);

      const response = await call('POST', '/cycle-counts', tenantId, {
        warehouseCode: 'WH1',
        locationCode: 'B-01',
        sku: 'PLAIN',
        countedQty: 2,
      });

      expect(response.body).toMatchObject({ systemQty: 0, countedQty: 2, variance: 2, qtyOnHand: 2 });
      expect(await rowsOf(tenantId, 'PLAIN')).toEqual([['B-01', '', 2, 0]]);
    });
  });

  describe('access', () => {
    it('when a user lacks the module permission, operations answer 403; read permission allows the inquiry only', async () => {
      const tenantId = await tenantWithStock([{ sku: 'PLAIN', qty: 5, locationCode: 'A-01' }]);
      const orderNo = await createOrder(tenantId, [{ sku: 'PLAIN', qty: 1 }]);
      const none = await createUser(ctx, { role: 'operator', tenantId });
      const reader = await createUser(ctx, { role: 'operator', tenantId, adminModules: ['orders', 'inventory'] });
      const picker = await createUser(ctx, {
        role: 'operator',
        tenantId,
        adminModules: ['orders'],
        adminModulesWrite: ['orders'],
      });
      const [noneToken, readerToken, pickerToken] = await Promise.all(
        [none, reader, picker].map((created) => loginAs(gateway.url, created.user.email, created.password)),
      );
      const adjustment = { warehouseCode: 'WH1', locationCode: 'A-01', sku: 'PLAIN', qtyDelta: 1, reason: 'r' };

      expect((await call('GET', `/orders/${orderNo}`, null, undefined, noneToken)).status).toBe(403);
      expect((await call('GET', `/orders/${orderNo}`, null, undefined, readerToken)).status).toBe(200);
      const readerAllocate = await call('POST', `/orders/${orderNo}/allocate`, null, undefined, readerToken);
      expect(readerAllocate.status).toBe(403);
      expect(readerAllocate.body.message).toBe('Missing write permission for module orders');
      expect((await call('POST', '/stock/adjustments', null, adjustment, readerToken)).status).toBe(403);
      expect(
        (
          await call(
            'POST',
            '/cycle-counts',
            null,
            { ...adjustment, qtyDelta: undefined, reason: undefined, countedQty: 1 },
            pickerToken,
          )
        ).status,
      ).toBe(403);
      expect((await call('POST', '/stock/adjustments', null, adjustment, pickerToken)).status).toBe(403);
      expect((await call('POST', `/orders/${orderNo}/allocate`, null, undefined, pickerToken)).body.status).toBe(
        'allocated',
      );
      expect(await rowsOf(tenantId, 'PLAIN')).toEqual([['A-01', '', 5, 1]]);
    });

    it('when a tenant-bound user names another tenant or its order, it gets 403 or 404; a cross-tenant user must name the tenant', async () => {
      const tenantId = await tenantWithStock([{ sku: 'PLAIN', qty: 5, locationCode: 'A-01' }]);
      const otherTenant = await tenantWithStock([{ sku: 'PLAIN', qty: 5, locationCode: 'A-01' }]);
      const otherOrder = await createOrder(otherTenant, [{ sku: 'PLAIN', qty: 1 }]);
      const bound = await createUser(ctx, {
        role: 'manager',
        tenantId,
        adminModules: ['orders'],
        adminModulesWrite: ['orders'],
      });
      const token = await loginAs(gateway.url, bound.user.email, bound.password);

      const hidden = await call('POST', `/orders/${otherOrder}/allocate`, null, undefined, token);
      const named = await call('POST', `/orders/${otherOrder}/allocate`, otherTenant, undefined, token);
      const unnamed = await call('GET', `/orders/${otherOrder}`, null);
      const badTenant = await call('GET', `/orders/${otherOrder}?tenantId=nope`, null);

      expect(hidden.status).toBe(404);
      expect(hidden.body.message).toBe(`Order ${otherOrder} not found`);
      expect(named.status).toBe(403);
      expect(unnamed.status).toBe(400);
      expect(unnamed.body.message).toBe('tenantId is required.');
      expect(badTenant.status).toBe(400);
      expect(await rowsOf(otherTenant, 'PLAIN')).toEqual([['A-01', '', 5, 0]]);
    });
  });
});
