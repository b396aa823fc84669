import { randomUUID } from 'node:crypto';
import { globSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { unitOfWork } from '@wms/platform';
import { EventsService } from '@wms/events';
import {
  createMasterData,
  createTenantWithWarehouse,
  createTestContext,
  inTenant,
  ledgerDisagreements,
  ledgerOf,
  stockRowsOf,
  type LedgerEntry,
  type TestContext,
} from '@wms/testing';
import { GrnService } from '../inbound/index.js';
import { AdjustmentsService, CycleCountsService } from '../inventory/index.js';
import { AllocationService, OrdersService, PickingService, ShippingService } from '../outbound/index.js';
import { ReturnReceiptsService, ReturnsService } from '../returns/index.js';
import { changeStock } from '../writes/index.js';
import { StockLedgerService } from './ledger.service.js';
import { decodeMovementCursor, type MovementCursor, type MovementView } from './movement.schemas.js';

const libraryRoot = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..', '..');

/**
 * The inventory ledger's rules, against the library's own services and a database of this file's own: every
 * change of a stock row has its ledger entry (cause, document, caller, balance after), the entries of a row
 * add up to its balance, an entry once written is never changed, and a change refused or rolled back leaves
 * no entry. Every tenant is new, with SKU at WH1/A-01.
 */
describe('the inventory ledger', () => {
  let ctx: TestContext;
  let grns: GrnService;
  let adjustments: AdjustmentsService;
  let counts: CycleCountsService;
  let orders: OrdersService;
  let allocation: AllocationService;
  let picking: PickingService;
  let shipping: ShippingService;
  let returns: ReturnsService;
  let receipts: ReturnReceiptsService;
  let ledger: StockLedgerService;
  let reference = 0;

  beforeAll(async () => {
    ctx = await createTestContext('warehouse-ledger');
    const db = ctx.runtime.db;
    const events = new EventsService(db);
    grns = new GrnService(db, events);
    adjustments = new AdjustmentsService(db, events);
    counts = new CycleCountsService(db, events);
    orders = new OrdersService(db, events);
    allocation = new AllocationService(db, events);
    picking = new PickingService(db, events);
    shipping = new ShippingService(db, events);
    returns = new ReturnsService(db);
    receipts = new ReturnReceiptsService(db, events);
    ledger = new StockLedgerService(db);
  });
  afterAll(() => ctx.close());

  async function newTenant(): Promise<string> {
    const { tenant } = await createTenantWithWarehouse(ctx, undefined, 'WH1');
    await createMasterData(ctx, tenant.id, {
      items: [{ sku: 'SKU' }],
      partners: [{ code: 'CUST', type: 'customer' }],
      locations: [{ warehouseCode: 'WH1', code: 'A-01' }],
    });
    return tenant.id;
  }

  async function order(tenantId: string, qtyOrdered: number): Promise<string> {
    const [outcome] = await inTenant(ctx, tenantId, (context) =>
      orders.createOrders(context, [
        {
          warehouseCode: 'WH1',
          customerCode: 'CUST',
          priority: 0,
          referenceNo: `LEDGER-${++reference}`,
          lines: [{ lineNo: 1, sku: 'SKU', uomCode: 'EA', qtyOrdered }],
        },
      ]),
    );
    if (!outcome?.ok) throw new Error('order not created');
    return outcome.data.orderNo as string;
  }

  const target = { warehouseCode: 'WH1', locationCode: 'A-01', sku: 'SKU' };
  const onHandAtA01 = async (tenantId: string) =>
    (await stockRowsOf(ctx, tenantId, 'SKU')).find((row) => row.location === 'A-01');

  it('through the life of stock, every change has its entry, the entries add up, and none written changes later', async () => {
    const tenantId = await newTenant();
    const rmaNo = `RMA-LIFE-${tenantId}`;
    const written: LedgerEntry[] = [];
    const steps: Array<[string, () => Promise<unknown>]> = [
      [
        'receipt',
        () =>
          inTenant(ctx, tenantId, (context) =>
            grns.receive(context, {
              warehouseCode: 'WH1',
              lines: [{ sku: 'SKU', uomCode: 'EA', qty: 10, locationCode: 'A-01' }],
            }),
          ),
      ],
      [
        'adjustment',
        () =>
          inTenant(ctx, tenantId, (context) =>
            adjustments.adjust(context, { ...target, qtyDelta: -1, reason: 'broken' }),
          ),
      ],
      [
        'shipped order',
        async () => {
          const orderNo = await order(tenantId, 4);
          await inTenant(ctx, tenantId, async (context) => {
            await allocation.allocate(context, orderNo);
            await picking.release(context, orderNo);
            await picking.pickAll(context, orderNo);
            await shipping.ship(context, orderNo, {});
          });
          const [created] = await inTenant(ctx, tenantId, (context) =>
            returns.createReturns(context, [{ rmaNo, orderNo, lines: [{ sku: 'SKU', qty: 1 }] }]),
          );
          if (!created?.ok) throw new Error('return not created');
        },
      ],
      [
        'cancelled order',
        async () => {
          const orderNo = await order(tenantId, 2);
          await inTenant(ctx, tenantId, (context) => allocation.allocate(context, orderNo));
          await inTenant(ctx, tenantId, (context) => orders.cancel(context, orderNo));
        },
      ],
      ['cycle count', () => inTenant(ctx, tenantId, (context) => counts.record(context, { ...target, countedQty: 3 }))],
      [
        'return receipt',
        () =>
          inTenant(ctx, tenantId, (context) =>
            receipts.receive(context, rmaNo, {
              lines: [{ sku: 'SKU', qty: 1, disposition: 'restock', locationCode: 'A-01' }],
            }),
          ),
      ],
    ];

    for (const [step, run] of steps) {
      await run();
      const entries = await ledgerOf(ctx, tenantId);

      expect({ step, kept: entries.slice(0, written.length) }).toEqual({ step, kept: written });
      expect({ step, problems: await ledgerDisagreements(ctx, tenantId) }).toEqual({ step, problems: [] });
      written.splice(0, written.length, ...entries);
    }
    expect(written.map((entry) => [entry.cause, entry.onHandDelta, entry.allocatedDelta, entry.onHandAfter])).toEqual([
      ['grn', 10, 0, 10],
      ['adjustment', -1, 0, 9],
      ['allocation', 0, 4, 9],
      ['pick', -4, -4, 5],
      ['allocation', 0, 2, 5],
      ['release', 0, -2, 5],
      ['cycle_count', -2, 0, 3],
      ['return', 1, 0, 4],
    ]);
    expect((await onHandAtA01(tenantId))?.onHand).toBe(4);
  });

  it("answers the same entries through the ledger's movements list, page by page", async () => {
    const tenantId = await newTenant();
    for (const qtyDelta of [5, -2, 7, -1]) {
      await inTenant(ctx, tenantId, (context) => adjustments.adjust(context, { ...target, qtyDelta, reason: 'count' }));
    }

    const pages: MovementView[][] = [];
    let cursor: MovementCursor | undefined;
    do {
      const page = await ledger.movements(tenantId, { sku: 'SKU', limit: 3, cursor });
      pages.push(page.data);
      cursor = page.nextCursor ? (decodeMovementCursor(page.nextCursor) ?? undefined) : undefined;
    } while (cursor);

    const movements = pages.flat();
    expect(pages.map((page) => page.length)).toEqual([3, 1]);
    expect(movements.map((movement) => movement.qtyOnHandDelta)).toEqual([5, -2, 7, -1]);
    expect(movements.reduce((sum, movement) => sum + Number(movement.qtyOnHandDelta), 0)).toBe(
      (await onHandAtA01(tenantId))?.onHand,
    );
  });

  it('records the caller of each change, and a simulated change as cause simulation', async () => {
    const tenantId = await newTenant();
    const userId = randomUUID();
    const apiKeyId = randomUUID();
    await unitOfWork(ctx.runtime.db, (transaction) =>
      adjustments.adjust({ tenantId, transaction, caller: { userId } }, { ...target, qtyDelta: 3, reason: 'found' }),
    );
    await unitOfWork(ctx.runtime.db, (transaction) =>
      adjustments.adjust({ tenantId, transaction, caller: { apiKeyId } }, { ...target, qtyDelta: 2, reason: 'found' }),
    );
    await unitOfWork(ctx.runtime.db, (transaction) =>
      adjustments.adjust({ tenantId, transaction, simulated: true }, { ...target, qtyDelta: 1, reason: 'sandbox' }),
    );

    const entries = await ledgerOf(ctx, tenantId);

    expect(entries.map((entry) => [entry.cause, entry.userId, entry.apiKeyId])).toEqual([
      ['adjustment', userId, null],
      ['adjustment', null, apiKeyId],
      ['simulation', null, null],
    ]);
    expect(await ledgerDisagreements(ctx, tenantId)).toEqual([]);
  });

  it('a change refused, or rolled back with its unit of work, leaves neither a change nor an entry', async () => {
    const tenantId = await newTenant();
    await inTenant(ctx, tenantId, (context) =>
      adjustments.adjust(context, { ...target, qtyDelta: 4, reason: 'opening' }),
    );
    const orderNo = await order(tenantId, 3);
    await inTenant(ctx, tenantId, (context) => allocation.allocate(context, orderNo));
    const before = await ledgerOf(ctx, tenantId);
    const row = (await onHandAtA01(tenantId))!;

    const belowAllocated = inTenant(ctx, tenantId, (context) =>
      adjustments.adjust(context, { ...target, qtyDelta: -2, reason: 'lost' }),
    );
    await expect(belowAllocated).rejects.toMatchObject({ status: 409, code: 'BELOW_ALLOCATED' });
    const overAllocated = inTenant(ctx, tenantId, (context) =>
      changeStock(ctx.runtime.db, context, { cause: 'allocation', documentNo: null }, [
        { stockRowId: row.stockRowId, onHand: 0, allocated: 2 },
      ]),
    );
    // The stock rows' CHECK (allocated within on hand) refuses it: check_violation.
    await expect(overAllocated).rejects.toMatchObject({ parent: { code: '23514' } });
    const rolledBack = inTenant(ctx, tenantId, async (context) => {
      await adjustments.adjust(context, { ...target, qtyDelta: 5, reason: 'found' });
      throw new Error('the rest of the work failed');
    });
    await expect(rolledBack).rejects.toThrow('the rest of the work failed');

    expect(await ledgerOf(ctx, tenantId)).toEqual(before);
    expect(await onHandAtA01(tenantId)).toEqual(row);
    expect(await ledgerDisagreements(ctx, tenantId)).toEqual([]);
  });

  it('a change whose deltas cancel out is neither made nor logged', async () => {
    const tenantId = await newTenant();
    await inTenant(ctx, tenantId, (context) =>
      adjustments.adjust(context, { ...target, qtyDelta: 2, reason: 'opening' }),
    );
    const row = (await onHandAtA01(tenantId))!;

    const balances = await inTenant(ctx, tenantId, (context) =>
      changeStock(ctx.runtime.db, context, { cause: 'adjustment', documentNo: null }, [
        { stockRowId: row.stockRowId, onHand: 1, allocated: 0 },
        { stockRowId: row.stockRowId, onHand: -1, allocated: 0 },
      ]),
    );

    expect(balances.size).toBe(0);
    expect(await ledgerOf(ctx, tenantId)).toHaveLength(1);
  });

  it('is written by one statement of the write kernel only, and no statement of the library updates or deletes it', () => {
    const sources = globSync('src/**/*.ts', { cwd: libraryRoot })
      .filter((file) => !file.endsWith('.spec.ts'))
      .map((file) => ({ file, text: readFileSync(join(libraryRoot, file), 'utf8') }));
    const writing = sources.filter(({ text }) => /INSERT INTO stock_movements\b/.test(text)).map(({ file }) => file);
    const changing = sources
      .filter(({ text }) => /(UPDATE|DELETE FROM)\s+stock_movements\b/i.test(text))
      .map(({ file }) => file);

    expect(writing).toEqual(['src/writes/stock-rows.repository.ts']);
    expect(changing).toEqual([]);
  });
});
