import {
  a,
  createTestContext,
  integratorOf,
  pushMasterData,
  type Integrator,
  type JsonNode,
  type TestContext,
} from '@wms/testing';

/** Section 2.11 of the interface: the order, ASN and stock inquiries, every field it names with its type. */
describe('interface 2.11: inquiry responses', () => {
  let ctx: TestContext;
  let integrator: Integrator;
  let asnNo: string;
  let orderNo: string;

  beforeAll(async () => {
    ctx = await createTestContext('conformance-inquiries');
    const gateway = await ctx.startGateway();
    integrator = await integratorOf(gateway.url, 'INQUIRIES');
    await pushMasterData(integrator);
    const asn = await integrator.call('POST', '/asn', {
      warehouseCode: 'WH1',
      supplierCode: 'SUP',
      expectedDate: '2030-01-15',
      referenceNo: 'PO-2.11',
      lines: [
        { lineNo: 1, sku: 'PLAIN', uomCode: 'EA', expectedQty: 10 },
        { lineNo: 2, sku: 'LOT', uomCode: 'EA', expectedQty: 5, lotNo: 'L1', expiryDate: '2031-01-01' },
      ],
    });
    asnNo = String(asn.body.data.asnNo);
    const grn = await integrator.call('POST', '/grn', {
      warehouseCode: 'WH1',
      asnNo,
      lines: [{ asnLineNo: 1, sku: 'PLAIN', uomCode: 'EA', qty: 4 }],
    });
    expect(grn.status).toBe(201);
    const order = await integrator.call('POST', '/orders', {
      warehouseCode: 'WH1',
      customerCode: 'CUST',
      requiredDate: '2030-03-01',
      priority: 1,
      shipTo: { name: 'Jane Doe', address: '1 Main St' },
      referenceNo: 'SO-2.11',
      lines: [{ lineNo: 1, sku: 'PLAIN', uomCode: 'EA', qtyOrdered: 3 }],
    });
    orderNo = String(order.body.data.orderNo);
    expect((await integrator.staff('POST', `/orders/${orderNo}/allocate`)).status).toBe(200);
    expect((await integrator.staff('POST', `/orders/${orderNo}/release`)).status).toBe(200);
  });
  afterAll(() => ctx.close());

  it('when the stock of a sku is asked, data has sku, itemName, tracking, three numeric totals and its stock rows', async () => {
    const stock = await integrator.call('GET', '/stock?sku=PLAIN&warehouseCode=WH1');

    expect(stock.status).toBe(200);
    expect(stock.body.data).toEqual(
      a.object({
        sku: 'PLAIN',
        itemName: a.string(),
        tracking: a.string(),
        totalOnHand: 4,
        totalAllocated: 3,
        totalAvailable: 1,
        stocks: a.nonEmptyArray(),
      }),
    );
    for (const row of stock.body.data.stocks) {
      expect(row).toEqual(
        a.object({
          warehouseCode: 'WH1',
          locationCode: a.string(),
          lotNo: a.stringOrNull(),
          qtyOnHand: a.number(),
          qtyAllocated: a.number(),
          qtyAvailable: a.number(),
        }),
      );
    }
  });

  it('when an order is asked, data is the order with its lines, its pick tasks and a numeric summary', async () => {
    const order = await integrator.call('GET', `/orders/${orderNo}`);

    expect(order.status).toBe(200);
    expect(order.body.data).toEqual(
      a.object({
        orderNo,
        referenceNo: 'SO-2.11',
        warehouseCode: 'WH1',
        customerCode: 'CUST',
        status: a.string(),
        lines: a.nonEmptyArray(),
        pickTasks: a.nonEmptyArray(),
        summary: { totalOrdered: 3, totalAllocated: 3, totalPicked: 0, totalShipped: 0 },
      }),
    );
    for (const line of order.body.data.lines) {
      expect(line).toEqual(
        a.object({ lineNo: a.integer(), sku: a.string(), uomCode: a.string(), qtyOrdered: a.number() }),
      );
    }
    for (const task of order.body.data.pickTasks) {
      expect(task).toEqual(a.object({ id: a.string(), sku: 'PLAIN', qty: a.number() }));
    }
  });

  it('when an ASN is asked, data is the ASN, its lines each with a numeric receivedQty, and its linked GRNs', async () => {
    const asn = await integrator.call('GET', `/asn/${asnNo}`);

    expect(asn.status).toBe(200);
    expect(asn.body.data).toEqual(
      a.object({
        asnNo,
        warehouseCode: 'WH1',
        supplierCode: 'SUP',
        referenceNo: 'PO-2.11',
        lines: a.nonEmptyArray(),
        grns: a.nonEmptyArray(),
      }),
    );
    expect(asn.body.data.lines.map((line: JsonNode) => [line.lineNo, line.receivedQty])).toEqual([
      [1, 4],
      [2, 0],
    ]);
    for (const line of asn.body.data.lines) {
      expect(line).toEqual(
        a.object({ lineNo: a.integer(), sku: a.string(), expectedQty: a.number(), receivedQty: a.number() }),
      );
    }
    expect(asn.body.data.grns[0]).toEqual(a.object({ grnNo: a.string() }));
  });
});
