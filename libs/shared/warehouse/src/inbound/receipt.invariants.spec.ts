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
import { AsnService } from './asn.service.js';
import { GrnService } from './grn.service.js';
import type { GrnLineInput } from './asn.schemas.js';

/**
 * The receipt rules, against the library's own services and a database of this file's own: a GRN against an
 * ASN puts its quantities on hand once and counts them on the ASN's lines; no line receives more than it
 * still expects (400, nothing stored); a receipt repeated once the ASN is received in full is refused and
 * adds nothing, also when two arrive together. Every tenant is new, with SKU and an ASN of 10 SKU.
 */
describe('goods receipt against an ASN', () => {
  let ctx: TestContext;
  let asns: AsnService;
  let grns: GrnService;
  let reference = 0;

  beforeAll(async () => {
    ctx = await createTestContext('warehouse-receipt');
    asns = new AsnService(ctx.runtime.db);
    grns = new GrnService(ctx.runtime.db, new EventsService(ctx.runtime.db));
  });
  afterAll(() => ctx.close());

  /** A tenant with an ASN expecting 10 SKU on line 1 (and 4 OTHER on line 2 when asked); answers both. */
  async function tenantWithAsn(withOther = false): Promise<{ tenantId: string; asnNo: string }> {
    const { tenant } = await createTenantWithWarehouse(ctx, undefined, 'WH1');
    await createMasterData(ctx, tenant.id, {
      items: [{ sku: 'SKU' }, { sku: 'OTHER' }],
      partners: [{ code: 'SUPP', type: 'supplier' }],
      locations: [{ warehouseCode: 'WH1', code: 'A-01' }],
    });
    const [outcome] = await inTenant(ctx, tenant.id, (context) =>
      asns.createAsns(context, [
        {
          warehouseCode: 'WH1',
          supplierCode: 'SUPP',
          referenceNo: `PO-${++reference}`,
          lines: [
            { lineNo: 1, sku: 'SKU', uomCode: 'EA', expectedQty: 10 },
            ...(withOther ? [{ lineNo: 2, sku: 'OTHER', uomCode: 'EA', expectedQty: 4 }] : []),
          ],
        },
      ]),
    );
    if (!outcome?.ok) throw new Error('ASN not created');
    return { tenantId: tenant.id, asnNo: outcome.data.asnNo as string };
  }

  const line = (qty: number, extra: Partial<GrnLineInput> = {}): GrnLineInput => ({
    asnLineNo: 1,
    sku: 'SKU',
    uomCode: 'EA',
    qty,
    ...extra,
  });
  const receive = (tenantId: string, asnNo: string | undefined, lines: GrnLineInput[]) =>
    inTenant(ctx, tenantId, (context) => grns.receive(context, { warehouseCode: 'WH1', asnNo, lines }));

  const onHand = async (tenantId: string, sku = 'SKU') =>
    (await stockRowsOf(ctx, tenantId, sku)).reduce((sum, row) => sum + row.onHand, 0);
  const receivedOnAsn = async (tenantId: string, asnNo: string) => {
    const asn = (await asns.inquire(tenantId, asnNo)) as { status: string; lines: { receivedQty: number }[] };
    return { status: asn.status, received: asn.lines.map((found) => Number(found.receivedQty)) };
  };

  it('puts what it receives on hand once, at RECEIVING unless a location is named, and counts it on the ASN', async () => {
    const { tenantId, asnNo } = await tenantWithAsn();

    const first = await receive(tenantId, asnNo, [line(6)]);
    const second = await receive(tenantId, asnNo, [line(4, { locationCode: 'A-01' })]);

    expect([first.asnStatus, second.asnStatus]).toEqual(['receiving', 'completed']);
    expect((await stockRowsOf(ctx, tenantId)).map((row) => [row.location, row.onHand, row.allocated])).toEqual([
      ['A-01', 4, 0],
      ['RECEIVING', 6, 0],
    ]);
    expect(await receivedOnAsn(tenantId, asnNo)).toEqual({ status: 'completed', received: [10] });
    const entries = (await ledgerOf(ctx, tenantId)).map((entry) => [entry.cause, entry.documentNo, entry.onHandDelta]);
    expect(entries).toEqual([
      ['grn', first.grnNo, 6],
      ['grn', second.grnNo, 4],
    ]);
    expect(await ledgerDisagreements(ctx, tenantId)).toEqual([]);
  });

  it('refuses an over-receipt of a line with 400, and stores nothing of the GRN', async () => {
    const { tenantId, asnNo } = await tenantWithAsn();
    await receive(tenantId, asnNo, [line(7)]);

    const over = receive(tenantId, asnNo, [line(4)]);

    await expect(over).rejects.toMatchObject({
      status: 400,
      code: 'VALIDATION_FAILED',
      details: [{ path: 'lines.0.qty', message: expect.stringContaining('over-receipt of ASN line 1') }],
    });
    expect(await onHand(tenantId)).toBe(7);
    expect(await receivedOnAsn(tenantId, asnNo)).toEqual({ status: 'receiving', received: [7] });
    expect(await ledgerOf(ctx, tenantId)).toHaveLength(1);
  });

  it('counts two lines of one GRN against the same ASN line together: over the open quantity is refused whole', async () => {
    const { tenantId, asnNo } = await tenantWithAsn(true);

    const split = receive(tenantId, asnNo, [
      line(6),
      line(2, { asnLineNo: 2, sku: 'OTHER' }),
      line(5, { locationCode: 'A-01' }),
    ]);

    await expect(split).rejects.toMatchObject({ status: 400, details: [{ path: 'lines.2.qty' }] });
    expect([await onHand(tenantId, 'SKU'), await onHand(tenantId, 'OTHER')]).toEqual([0, 0]);
    expect(await receivedOnAsn(tenantId, asnNo)).toEqual({ status: 'open', received: [0, 0] });
  });

  it('refuses a receipt repeated once the ASN is received in full (409), adding nothing', async () => {
    const { tenantId, asnNo } = await tenantWithAsn();
    await receive(tenantId, asnNo, [line(10)]);

    const repeated = receive(tenantId, asnNo, [line(10)]);
    const openLines = inTenant(ctx, tenantId, (context) => grns.receiveOpenLines(context, asnNo));

    await expect(repeated).rejects.toMatchObject({ status: 409, code: 'INVALID_STATE' });
    await expect(openLines).rejects.toMatchObject({ status: 409, code: 'NOTHING_TO_RECEIVE' });
    expect(await onHand(tenantId)).toBe(10);
    expect(await ledgerOf(ctx, tenantId)).toHaveLength(1);
    expect(await ledgerDisagreements(ctx, tenantId)).toEqual([]);
  });

  it('when the same full receipt arrives twice at once, one is stored and the other refused', async () => {
    const { tenantId, asnNo } = await tenantWithAsn();

    const outcomes = await Promise.allSettled([
      receive(tenantId, asnNo, [line(10)]),
      receive(tenantId, asnNo, [line(10)]),
    ]);

    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = outcomes.find((outcome) => outcome.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({ status: 409, code: 'INVALID_STATE' });
    expect(await onHand(tenantId)).toBe(10);
    expect(await receivedOnAsn(tenantId, asnNo)).toEqual({ status: 'completed', received: [10] });
    expect(await ledgerDisagreements(ctx, tenantId)).toEqual([]);
  });

  it('receives the open rest of an ASN in full at RECEIVING, by one GRN', async () => {
    const { tenantId, asnNo } = await tenantWithAsn(true);
    await receive(tenantId, asnNo, [line(3)]);

    const rest = await inTenant(ctx, tenantId, (context) => grns.receiveOpenLines(context, asnNo));

    expect(rest.asnStatus).toBe('completed');
    expect((await stockRowsOf(ctx, tenantId)).map((row) => [row.location, row.sku, row.onHand])).toEqual([
      ['RECEIVING', 'OTHER', 4],
      ['RECEIVING', 'SKU', 10],
    ]);
    expect(await ledgerDisagreements(ctx, tenantId)).toEqual([]);
  });

  it('refuses a line for another sku than its ASN line, and a line the ASN does not have', async () => {
    const { tenantId, asnNo } = await tenantWithAsn(true);

    const wrong = receive(tenantId, asnNo, [line(1, { sku: 'OTHER' }), line(1, { asnLineNo: 9 })]);

    await expect(wrong).rejects.toMatchObject({
      status: 400,
      details: [{ path: 'lines.0.sku' }, { path: 'lines.1.asnLineNo' }],
    });
    expect(await ledgerOf(ctx, tenantId)).toEqual([]);
  });
});
