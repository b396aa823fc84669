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
import { GrnService } from '../inbound/index.js';
import { AllocationService, OrdersService, PickingService, ShippingService } from '../outbound/index.js';
import { ReturnReceiptsService } from './return-receipts.service.js';
import { ReturnsService } from './returns.service.js';
import type { ReceiptLineInput } from './return.schemas.js';

/**
 * The rules of returned goods, against the library's own services and a database of this file's own: a
 * return takes back at most what its order shipped; a receipt restocks (on hand, allocatable) or
 * quarantines (on hand in a quarantine location, never allocated) or scraps (recorded, no stock) what came
 * back, each once: no return line receives more than it announced, and a received return takes no second
 * receipt, also when two arrive together. Every tenant is new, with an order that shipped 4 SKU from A-01.
 */
describe('return receipts', () => {
  let ctx: TestContext;
  let grns: GrnService;
  let orders: OrdersService;
  let allocation: AllocationService;
  let picking: PickingService;
  let shipping: ShippingService;
  let returns: ReturnsService;
  let receipts: ReturnReceiptsService;
  let reference = 0;

  beforeAll(async () => {
    ctx = await createTestContext('warehouse-returns');
    const events = new EventsService(ctx.runtime.db);
    grns = new GrnService(ctx.runtime.db, events);
    orders = new OrdersService(ctx.runtime.db, events);
    allocation = new AllocationService(ctx.runtime.db, events);
    picking = new PickingService(ctx.runtime.db, events);
    shipping = new ShippingService(ctx.runtime.db, events);
    returns = new ReturnsService(ctx.runtime.db);
    receipts = new ReturnReceiptsService(ctx.runtime.db, events);
  });
  afterAll(() => ctx.close());

  /** A tenant whose order shipped 4 of the 10 SKU received at A-01, and a return of `qty` of it. */
  async function tenantWithReturn(qty: number): Promise<{ tenantId: string; orderNo: string; rmaNo: string }> {
    const { tenant } = await createTenantWithWarehouse(ctx, undefined, 'WH1');
    const tenantId = tenant.id;
    await createMasterData(ctx, tenantId, {
      items: [{ sku: 'SKU' }],
      partners: [{ code: 'CUST', type: 'customer' }],
      locations: [{ warehouseCode: 'WH1', code: 'A-01' }],
    });
    const orderNo = await inTenant(ctx, tenantId, async (context) => {
      await grns.receive(context, {
        warehouseCode: 'WH1',
        lines: [{ sku: 'SKU', uomCode: 'EA', qty: 10, locationCode: 'A-01' }],
      });
      const [order] = await orders.createOrders(context, [
        {
          warehouseCode: 'WH1',
          customerCode: 'CUST',
          priority: 0,
          referenceNo: `RET-${++reference}`,
          lines: [{ lineNo: 1, sku: 'SKU', uomCode: 'EA', qtyOrdered: 4 }],
        },
      ]);
      if (!order?.ok) throw new Error('order not created');
      const created = order.data.orderNo as string;
      await allocation.allocate(context, created);
      await picking.release(context, created);
      await picking.pickAll(context, created);
      await shipping.ship(context, created, {});
      return created;
    });
    const rmaNo = `RMA-${reference}`;
    await createReturn(tenantId, orderNo, rmaNo, qty);
    return { tenantId, orderNo, rmaNo };
  }

  async function createReturn(tenantId: string, orderNo: string, rmaNo: string, qty: number) {
    const [outcome] = await inTenant(ctx, tenantId, (context) =>
      returns.createReturns(context, [{ rmaNo, orderNo, lines: [{ sku: 'SKU', qty }] }]),
    );
    if (!outcome?.ok) throw outcome?.error ?? new Error('return not created');
  }

  const receive = (tenantId: string, rmaNo: string, lines: Array<Partial<ReceiptLineInput>>) =>
    inTenant(ctx, tenantId, (context) =>
      receipts.receive(context, rmaNo, { lines: lines.map((line) => ({ sku: 'SKU', ...line })) }),
    );

  /** The tenant's SKU stock as [location, on hand, allocated], in location order. */
  const stock = async (tenantId: string) =>
    (await stockRowsOf(ctx, tenantId, 'SKU')).map((row) => [row.location, row.onHand, row.allocated]);
  const returnEntries = async (tenantId: string) =>
    (await ledgerOf(ctx, tenantId))
      .filter((entry) => entry.cause === 'return')
      .map((entry) => [entry.location, entry.onHandDelta, entry.documentNo]);

  it('restocks at RECEIVING and quarantines in the quarantine location (made on first use), each once', async () => {
    const { tenantId, rmaNo } = await tenantWithReturn(3);

    const partly = await receive(tenantId, rmaNo, [{ qty: 2, disposition: 'restock' }]);
    const rest = await receive(tenantId, rmaNo, [{ qty: 1, disposition: 'quarantine' }]);

    expect([partly.status, rest.status]).toEqual(['partially_received', 'received']);
    expect(await stock(tenantId)).toEqual([
      ['A-01', 6, 0],
      ['QUARANTINE', 1, 0],
      ['RECEIVING', 2, 0],
    ]);
    expect(await returnEntries(tenantId)).toEqual([
      ['RECEIVING', 2, rmaNo],
      ['QUARANTINE', 1, rmaNo],
    ]);
    expect(await ledgerDisagreements(ctx, tenantId)).toEqual([]);
  });

  it('quarantined goods are on hand but never allocated; restocked goods are', async () => {
    const { tenantId, rmaNo } = await tenantWithReturn(4);
    await receive(tenantId, rmaNo, [
      { qty: 1, disposition: 'restock' },
      { qty: 3, disposition: 'quarantine' },
    ]);
    const orderNo = await inTenant(ctx, tenantId, async (context) => {
      const [order] = await orders.createOrders(context, [
        {
          warehouseCode: 'WH1',
          customerCode: 'CUST',
          priority: 0,
          referenceNo: `AFTER-${++reference}`,
          lines: [{ lineNo: 1, sku: 'SKU', uomCode: 'EA', qtyOrdered: 10 }],
        },
      ]);
      return order!.ok ? (order.data.orderNo as string) : '';
    });

    const allocated = await inTenant(ctx, tenantId, (context) => allocation.allocate(context, orderNo));

    expect(allocated.qtyAllocated).toBe(7);
    expect(await stock(tenantId)).toEqual([
      ['A-01', 6, 6],
      ['QUARANTINE', 3, 0],
      ['RECEIVING', 1, 1],
    ]);
  });

  it('records a scrapped line and writes no stock and no ledger entry for it', async () => {
    const { tenantId, rmaNo } = await tenantWithReturn(2);

    const received = await receive(tenantId, rmaNo, [{ qty: 2, disposition: 'scrap' }]);

    expect(received.status).toBe('received');
    expect(await stock(tenantId)).toEqual([['A-01', 6, 0]]);
    expect(await returnEntries(tenantId)).toEqual([]);
  });

  it('refuses a receipt of more than a line still expects (409 RECEIPT_EXCEEDS_RETURN), storing nothing', async () => {
    const { tenantId, rmaNo } = await tenantWithReturn(3);
    await receive(tenantId, rmaNo, [{ qty: 2, disposition: 'restock' }]);

    const over = receive(tenantId, rmaNo, [
      { qty: 1, disposition: 'restock' },
      { qty: 1, disposition: 'quarantine' },
    ]);

    await expect(over).rejects.toMatchObject({ status: 409, code: 'RECEIPT_EXCEEDS_RETURN' });
    expect(await stock(tenantId)).toEqual([
      ['A-01', 6, 0],
      ['RECEIVING', 2, 0],
    ]);
    const document = (await returns.inquire(tenantId, rmaNo)) as { status: string; lines: { receivedQty: number }[] };
    expect([document.status, document.lines[0]!.receivedQty]).toEqual(['partially_received', 2]);
  });

  it('refuses a second receipt of a received return (409 INVALID_STATE) and adds nothing', async () => {
    const { tenantId, rmaNo } = await tenantWithReturn(2);
    await receive(tenantId, rmaNo, [{ qty: 2, disposition: 'restock' }]);

    const again = receive(tenantId, rmaNo, [{ qty: 2, disposition: 'restock' }]);
    const openLines = inTenant(ctx, tenantId, (context) => receipts.receiveOpenLines(context, rmaNo));

    await expect(again).rejects.toMatchObject({ status: 409, code: 'INVALID_STATE' });
    await expect(openLines).rejects.toMatchObject({ status: 409, code: 'NOTHING_TO_RECEIVE' });
    expect(await returnEntries(tenantId)).toEqual([['RECEIVING', 2, rmaNo]]);
    expect(await ledgerDisagreements(ctx, tenantId)).toEqual([]);
  });

  it('when the same full receipt arrives twice at once, one restocks and the other is refused', async () => {
    const { tenantId, rmaNo } = await tenantWithReturn(3);

    const outcomes = await Promise.allSettled([
      receive(tenantId, rmaNo, [{ qty: 3, disposition: 'restock' }]),
      receive(tenantId, rmaNo, [{ qty: 3, disposition: 'restock' }]),
    ]);

    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect((outcomes.find((outcome) => outcome.status === 'rejected') as PromiseRejectedResult).reason).toMatchObject({
      status: 409,
      code: 'INVALID_STATE',
    });
    expect(await stock(tenantId)).toEqual([
      ['A-01', 6, 0],
      ['RECEIVING', 3, 0],
    ]);
    expect(await ledgerDisagreements(ctx, tenantId)).toEqual([]);
  });

  it('sends restocked goods only where they can be allocated from, quarantined ones only to a quarantine location', async () => {
    const { tenantId, rmaNo } = await tenantWithReturn(2);
    await receive(tenantId, rmaNo, [{ qty: 1, disposition: 'quarantine' }]);

    const misplaced = receive(tenantId, rmaNo, [{ qty: 1, disposition: 'restock', locationCode: 'QUARANTINE' }]);
    const unquarantined = receive(tenantId, rmaNo, [{ qty: 1, disposition: 'quarantine', locationCode: 'A-01' }]);

    await expect(misplaced).rejects.toMatchObject({ status: 400, details: [{ path: 'lines.0.locationCode' }] });
    await expect(unquarantined).rejects.toMatchObject({ status: 400, details: [{ path: 'lines.0.locationCode' }] });
    expect(await returnEntries(tenantId)).toEqual([['QUARANTINE', 1, rmaNo]]);
  });

  it('a return takes back at most what its order shipped, counting the returns before it', async () => {
    const { tenantId, orderNo } = await tenantWithReturn(3);

    const beyond = await createReturn(tenantId, orderNo, `RMA-BEYOND-${reference}`, 2).catch((error: unknown) => error);
    await createReturn(tenantId, orderNo, `RMA-REST-${reference}`, 1);
    const pastAll = await createReturn(tenantId, orderNo, `RMA-PAST-${reference}`, 1).catch((error: unknown) => error);

    expect(beyond).toMatchObject({ status: 409, code: 'RETURN_EXCEEDS_SHIPPED' });
    expect(pastAll).toMatchObject({ status: 409, code: 'RETURN_EXCEEDS_SHIPPED' });
  });
});
