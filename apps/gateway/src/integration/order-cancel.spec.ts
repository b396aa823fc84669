import { QueryTypes } from 'sequelize';
import { unitOfWork, type UnitOfWork } from '@wms/platform';
import type { OrderStatus } from '@wms/warehouse';
import {
  createApiKey,
  createMasterData,
  createPickTask,
  createTestContext,
  defaultTenantId,
  request,
  reserveStock,
  setOrderStatus,
  type TestContext,
  type TestGateway,
} from '@wms/testing';

const BASE = '/api/v1/integration/v1';

/**
 * Cancel in every state before shipped. Allocation, release and picking are arranged through the
 * test harness's fulfilment factories (they take the stock row a case names); the cancel goes through HTTP.
 */
describe('integration order cancel', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let key: string;
  let tenantId: string;
  let reference = 0;

  beforeAll(async () => {
    ctx = await createTestContext('order-cancel');
    gateway = await ctx.startGateway();
    tenantId = await defaultTenantId(ctx);
    key = (await createApiKey(ctx, { tenantId })).rawKey;
    await createMasterData(ctx, tenantId, {
      partners: [{ code: 'CUST', type: 'customer' }],
      locations: [
        { warehouseCode: 'MAIN', code: 'A-01' },
        { warehouseCode: 'MAIN', code: 'B-01' },
      ],
    });
  });
  afterAll(() => ctx.close());

  const post = (path: string) => request(gateway.url, 'POST', `${BASE}${path}`, { headers: { 'x-api-key': key } });
  const get = (path: string) => request(gateway.url, 'GET', `${BASE}${path}`, { headers: { 'x-api-key': key } });
  const query = <T extends object>(sql: string, bind: unknown[]): Promise<T[]> =>
    ctx.runtime.db.sequelize.query<T>(sql, { bind, type: QueryTypes.SELECT });
  const inTransaction = <T>(work: (transaction: UnitOfWork) => Promise<T>) => unitOfWork(ctx.runtime.db, work);

  /** An item with `onHand` at A-01 and B-01 each, and an open order of `qty` for it. */
  async function arrange(sku: string, onHand: number, qty: number) {
    await createMasterData(ctx, tenantId, { items: [{ sku }] });
    await inTransaction((transaction) =>
      ctx.services.grns.receive(
        { tenantId, transaction },
        {
          warehouseCode: 'MAIN',
          lines: [
            { sku, uomCode: 'EA', qty: onHand, locationCode: 'A-01' },
            { sku, uomCode: 'EA', qty: onHand, locationCode: 'B-01' },
          ],
        },
      ),
    );
    const [outcome] = await inTransaction((transaction) =>
      ctx.services.orders.createOrders({ tenantId, transaction }, [
        {
          warehouseCode: 'MAIN',
          customerCode: 'CUST',
          priority: 0,
          referenceNo: `CANCEL-${++reference}`,
          lines: [{ lineNo: 1, sku, uomCode: 'EA', qtyOrdered: qty }],
        },
      ]),
    );
    if (!outcome?.ok) throw new Error('order not created');
    const orderNo = outcome.data.orderNo as string;
    const [ids] = await query<{ orderId: string; lineId: string }>(
      `SELECT o.id AS "orderId", l.id AS "lineId" FROM sales_orders o JOIN sales_order_lines l ON l.order_id = o.id WHERE o.order_no = $1`,
      [orderNo],
    );
    const rows = await query<{ id: string; location: string }>(
      `SELECT s.id, l.code AS location FROM stock_rows s JOIN locations l ON l.id = s.location_id JOIN items i ON i.id = s.item_id WHERE i.sku = $1 ORDER BY l.code`,
      [sku],
    );
    return { orderNo, orderId: ids!.orderId, lineId: ids!.lineId, rowA: rows[0]!.id, rowB: rows[1]!.id };
  }

  async function allocate(
    arranged: Awaited<ReturnType<typeof arrange>>,
    stockRowId: string,
    qty: number,
    status: OrderStatus,
  ) {
    return inTransaction(async (transaction) => {
      const allocationId = await reserveStock(
        ctx,
        { tenantId, orderLineId: arranged.lineId, stockRowId, qty },
        transaction,
      );
      await setOrderStatus(ctx, arranged.orderId, status, transaction);
      return allocationId;
    });
  }

  async function stockOf(sku: string) {
    return (await get(`/stock?sku=${sku}`)).body.data;
  }

  it('when an open order is cancelled, it answers 200 with the number and status; a second cancel is 409 naming the state', async () => {
    const { orderNo } = await arrange('OPEN', 5, 2);

    const cancelled = await post(`/orders/${orderNo}/cancel`);
    const again = await post(`/orders/${orderNo}/cancel`);

    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toEqual({
      status: 'success',
      data: { orderNo, status: 'cancelled' },
      requestId: expect.any(String),
    });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      code: 'INVALID_STATE',
      message: `Order ${orderNo} is cancelled and cannot be cancelled`,
    });
    expect((await get(`/orders/${orderNo}`)).body.data).toMatchObject({
      status: 'cancelled',
      cancelledAt: expect.any(String),
    });
  });

  it('when an allocated order is cancelled, its reservations are released and available stock is whole again', async () => {
    const arranged = await arrange('ALLOC', 10, 8);
    await allocate(arranged, arranged.rowA, 5, 'open');
    await allocate(arranged, arranged.rowB, 3, 'allocated');
    const before = await stockOf('ALLOC');

    const response = await post(`/orders/${arranged.orderNo}/cancel`);

    expect(before).toMatchObject({ totalOnHand: 20, totalAllocated: 8, totalAvailable: 12 });
    expect(response.status).toBe(200);
    expect(await stockOf('ALLOC')).toMatchObject({ totalOnHand: 20, totalAllocated: 0, totalAvailable: 20 });
    expect((await get(`/orders/${arranged.orderNo}`)).body.data.summary).toEqual({
      totalOrdered: 8,
      totalAllocated: 0,
      totalPicked: 0,
      totalShipped: 0,
    });
  });

  it('when a released order is cancelled, its open pick tasks are cancelled and their reservations released', async () => {
    const arranged = await arrange('RELEASED', 10, 4);
    const allocationId = await allocate(arranged, arranged.rowA, 4, 'allocated');
    await inTransaction(async (transaction) => {
      await createPickTask(ctx, allocationId, transaction);
      await setOrderStatus(ctx, arranged.orderId, 'released', transaction);
    });

    const response = await post(`/orders/${arranged.orderNo}/cancel`);

    expect(response.status).toBe(200);
    const order = (await get(`/orders/${arranged.orderNo}`)).body.data;
    expect(order.pickTasks).toEqual([
      {
        id: expect.any(String),
        lineNo: 1,
        sku: 'RELEASED',
        locationCode: 'A-01',
        lotNo: null,
        qty: 4,
        qtyPicked: 0,
        status: 'cancelled',
      },
    ]);
    expect(await stockOf('RELEASED')).toMatchObject({ totalOnHand: 20, totalAllocated: 0, totalAvailable: 20 });
  });

  it('when a picked order is cancelled, picked quantities go back on hand where they were picked and open tasks are cancelled', async () => {
    const arranged = await arrange('PICKED', 10, 7);
    const fromA = await allocate(arranged, arranged.rowA, 4, 'open');
    const fromB = await allocate(arranged, arranged.rowB, 3, 'allocated');
    await inTransaction(async (transaction) => {
      const taskA = await createPickTask(ctx, fromA, transaction);
      await createPickTask(ctx, fromB, transaction);
      await ctx.services.picking.confirm({ tenantId, transaction }, taskA, { qtyPicked: 4 });
      await setOrderStatus(ctx, arranged.orderId, 'picked', transaction);
    });
    const before = await stockOf('PICKED');

    const response = await post(`/orders/${arranged.orderNo}/cancel`);

    expect(before.stocks.map((row) => [row.locationCode, row.qtyOnHand, row.qtyAllocated])).toEqual([
      ['A-01', 6, 0],
      ['B-01', 10, 3],
    ]);
    expect(response.status).toBe(200);
    const after = await stockOf('PICKED');
    expect(after.stocks.map((row) => [row.locationCode, row.qtyOnHand, row.qtyAllocated])).toEqual([
      ['A-01', 10, 0],
      ['B-01', 10, 0],
    ]);
    expect(after).toMatchObject({ totalOnHand: 20, totalAllocated: 0, totalAvailable: 20 });
    const order = (await get(`/orders/${arranged.orderNo}`)).body.data;
    expect(order.pickTasks.map((task) => [task.locationCode, task.status])).toEqual([
      ['A-01', 'picked'],
      ['B-01', 'cancelled'],
    ]);
  });

  it('when a shipped order is cancelled, it answers 409 INVALID_STATE naming the state and changes nothing', async () => {
    const arranged = await arrange('SHIPPED', 5, 1);
    await inTransaction((transaction) => setOrderStatus(ctx, arranged.orderId, 'shipped', transaction));

    const response = await post(`/orders/${arranged.orderNo}/cancel`);

    expect(response.status).toBe(409);
    expect(response.body).toMatchObject({
      status: 'error',
      code: 'INVALID_STATE',
      message: `Order ${arranged.orderNo} is shipped and cannot be cancelled`,
    });
    expect((await get(`/orders/${arranged.orderNo}`)).body.data.status).toBe('shipped');
  });

  it('when the same allocated order is cancelled twice at once, one cancel wins and stock is released once', async () => {
    const arranged = await arrange('TWICE', 10, 5);
    await allocate(arranged, arranged.rowA, 5, 'allocated');

    const responses = await Promise.all([
      post(`/orders/${arranged.orderNo}/cancel`),
      post(`/orders/${arranged.orderNo}/cancel`),
    ]);

    expect(responses.map((response) => response.status).sort()).toEqual([200, 409]);
    expect(await stockOf('TWICE')).toMatchObject({ totalOnHand: 20, totalAllocated: 0, totalAvailable: 20 });
  });

  it('when an allocation asks for more than a row has available, the database refuses it and nothing changes', async () => {
    const arranged = await arrange('SCARCE', 3, 5);

    await expect(allocate(arranged, arranged.rowA, 4, 'allocated')).rejects.toThrow(/stock_rows_never_negative/);

    expect(await stockOf('SCARCE')).toMatchObject({ totalOnHand: 6, totalAllocated: 0 });
  });

  it('when an order number is unknown, cancel and inquiry answer 404 naming the order', async () => {
    const cancel = await post('/orders/SO-19990101-000001/cancel');
    const inquiry = await get('/orders/SO-19990101-000001');

    expect(cancel.status).toBe(404);
    expect(inquiry.body).toMatchObject({ code: 'NOT_FOUND', message: 'Order SO-19990101-000001 not found' });
  });
});
