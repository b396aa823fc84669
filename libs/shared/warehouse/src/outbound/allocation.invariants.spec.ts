import { QueryTypes } from 'sequelize';
import { AppError } from '@wms/platform';
import { EventsService } from '@wms/events';
import {
  createMasterData,
  createTenantWithWarehouse,
  createTestContext,
  inTenant,
  ledgerDisagreements,
  ledgerOf,
  stockRowsOf,
  type TestContext,
} from '@wms/testing';
import { AdjustmentsService } from '../inventory/index.js';
import { AllocationService } from './allocation.service.js';
import { OrdersService } from './orders.service.js';
import { PickingService } from './picking.service.js';

/**
 * The allocation rules, against the library's own services and a database of this file's own: allocation
 * never reserves more than a stock row has available (on hand less allocated, outside quarantine), however
 * many allocations race for the last units; a cancel gives back what the order held, reserved or picked.
 * Every tenant is new, with one item at WH1/A-01.
 */
describe('allocation', () => {
  let ctx: TestContext;
  let allocation: AllocationService;
  let orders: OrdersService;
  let picking: PickingService;
  let adjustments: AdjustmentsService;
  let reference = 0;

  beforeAll(async () => {
    ctx = await createTestContext('warehouse-allocation');
    const events = new EventsService(ctx.runtime.db);
    allocation = new AllocationService(ctx.runtime.db, events);
    orders = new OrdersService(ctx.runtime.db, events);
    picking = new PickingService(ctx.runtime.db, events);
    adjustments = new AdjustmentsService(ctx.runtime.db, events);
  });
  afterAll(() => ctx.close());

  /** A tenant with `onHand` of SKU at WH1/A-01 (and a quarantine location Q-01, empty). */
  async function tenantWithStock(onHand: number): Promise<string> {
    const { tenant } = await createTenantWithWarehouse(ctx, undefined, 'WH1');
    await createMasterData(ctx, tenant.id, {
      items: [{ sku: 'SKU' }],
      partners: [{ code: 'CUST', type: 'customer' }],
      locations: [{ warehouseCode: 'WH1', code: 'A-01' }],
    });
    await ctx.runtime.db.sequelize.query(
      `INSERT INTO locations (tenant_id, warehouse_id, code, type)
       SELECT tenant_id, warehouse_id, 'Q-01', 'quarantine' FROM locations WHERE tenant_id = $1 AND code = 'A-01'`,
      { bind: [tenant.id], type: QueryTypes.INSERT },
    );
    await adjust(tenant.id, 'A-01', onHand);
    return tenant.id;
  }

  const adjust = (tenantId: string, locationCode: string, qtyDelta: number) =>
    inTenant(ctx, tenantId, (context) =>
      adjustments.adjust(context, { warehouseCode: 'WH1', locationCode, sku: 'SKU', qtyDelta, reason: 'opening' }),
    );

  async function order(tenantId: string, qtyOrdered: number): Promise<string> {
    const [outcome] = await inTenant(ctx, tenantId, (context) =>
      orders.createOrders(context, [
        {
          warehouseCode: 'WH1',
          customerCode: 'CUST',
          priority: 0,
          referenceNo: `ALLOC-${++reference}`,
          lines: [{ lineNo: 1, sku: 'SKU', uomCode: 'EA', qtyOrdered }],
        },
      ]),
    );
    if (!outcome?.ok) throw new Error('order not created');
    return outcome.data.orderNo as string;
  }

  const allocate = (tenantId: string, orderNo: string) =>
    inTenant(ctx, tenantId, (context) => allocation.allocate(context, orderNo));

  /** SKU's stock at a location as [on hand, allocated]. */
  async function stockAt(tenantId: string, location: string): Promise<[number, number]> {
    const row = (await stockRowsOf(ctx, tenantId, 'SKU')).find((found) => found.location === location);
    return [row?.onHand ?? 0, row?.allocated ?? 0];
  }

  it('reserves what is available and no more: a short order stays open, a second allocation finds nothing', async () => {
    const tenantId = await tenantWithStock(5);
    const orderNo = await order(tenantId, 8);

    const first = await allocate(tenantId, orderNo);
    const again = await allocate(tenantId, orderNo);

    expect(first).toEqual({ orderNo, status: 'open', qtyAllocated: 5 });
    expect(again).toEqual({ orderNo, status: 'open', qtyAllocated: 0 });
    expect(await stockAt(tenantId, 'A-01')).toEqual([5, 5]);
    expect(await ledgerDisagreements(ctx, tenantId)).toEqual([]);
  });

  it('does not offer stock held in a quarantine location', async () => {
    const tenantId = await tenantWithStock(2);
    await adjust(tenantId, 'Q-01', 10);
    const orderNo = await order(tenantId, 6);

    const result = await allocate(tenantId, orderNo);

    expect(result.qtyAllocated).toBe(2);
    expect(await stockAt(tenantId, 'Q-01')).toEqual([10, 0]);
  });

  it('tops up an open order when stock arrives, and marks it allocated once it is covered', async () => {
    const tenantId = await tenantWithStock(3);
    const orderNo = await order(tenantId, 5);
    await allocate(tenantId, orderNo);
    await adjust(tenantId, 'A-01', 4);

    const topUp = await allocate(tenantId, orderNo);

    expect(topUp).toEqual({ orderNo, status: 'allocated', qtyAllocated: 2 });
    expect(await stockAt(tenantId, 'A-01')).toEqual([7, 5]);
  });

  it('when several orders race for the last units, one wins them and the others reserve nothing', async () => {
    const tenantId = await tenantWithStock(4);
    const orderNos = [await order(tenantId, 4), await order(tenantId, 4), await order(tenantId, 4)];

    const results = await Promise.all(orderNos.map((orderNo) => allocate(tenantId, orderNo)));

    expect(results.map((result) => result.qtyAllocated).sort()).toEqual([0, 0, 4]);
    expect(results.filter((result) => result.status === 'allocated')).toHaveLength(1);
    expect(await stockAt(tenantId, 'A-01')).toEqual([4, 4]);
    const allocations = (await ledgerOf(ctx, tenantId)).filter((entry) => entry.cause === 'allocation');
    expect(allocations.map((entry) => entry.allocatedDelta)).toEqual([4]);
    expect(await ledgerDisagreements(ctx, tenantId)).toEqual([]);
  });

  it('when racing orders together want more than there is, the reservations add up to what was available', async () => {
    const tenantId = await tenantWithStock(5);
    const orderNos = [await order(tenantId, 2), await order(tenantId, 2), await order(tenantId, 2)];

    const results = await Promise.all(orderNos.map((orderNo) => allocate(tenantId, orderNo)));

    expect(results.map((result) => result.qtyAllocated).sort()).toEqual([1, 2, 2]);
    expect(await stockAt(tenantId, 'A-01')).toEqual([5, 5]);
    expect(await ledgerDisagreements(ctx, tenantId)).toEqual([]);
  });

  it('a cancel releases what the order reserved, once: a second cancel and a later allocation are refused', async () => {
    const tenantId = await tenantWithStock(5);
    const orderNo = await order(tenantId, 3);
    await allocate(tenantId, orderNo);

    const cancelled = await inTenant(ctx, tenantId, (context) => orders.cancel(context, orderNo));
    const again = inTenant(ctx, tenantId, (context) => orders.cancel(context, orderNo));
    const allocateCancelled = allocate(tenantId, orderNo);

    expect(cancelled).toEqual({ orderNo, status: 'cancelled' });
    await expect(again).rejects.toMatchObject({ status: 409, code: 'INVALID_STATE' });
    await expect(allocateCancelled).rejects.toBeInstanceOf(AppError);
    expect(await stockAt(tenantId, 'A-01')).toEqual([5, 0]);
    const causes = (await ledgerOf(ctx, tenantId)).map((entry) => [entry.cause, entry.allocatedDelta]);
    expect(causes).toEqual([
      ['adjustment', 0],
      ['allocation', 3],
      ['release', -3],
    ]);
    expect(await ledgerDisagreements(ctx, tenantId)).toEqual([]);
  });

  it('a cancel after picking puts the picked goods back on hand at the row they were picked from', async () => {
    const tenantId = await tenantWithStock(5);
    const orderNo = await order(tenantId, 3);
    await allocate(tenantId, orderNo);
    await inTenant(ctx, tenantId, async (context) => {
      await picking.release(context, orderNo);
      await picking.pickAll(context, orderNo);
    });
    const picked = await stockAt(tenantId, 'A-01');

    await inTenant(ctx, tenantId, (context) => orders.cancel(context, orderNo));

    expect(picked).toEqual([2, 0]);
    expect(await stockAt(tenantId, 'A-01')).toEqual([5, 0]);
    expect(await ledgerDisagreements(ctx, tenantId)).toEqual([]);
  });
});
