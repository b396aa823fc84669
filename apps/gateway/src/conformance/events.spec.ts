import {
  ISO_UTC,
  a,
  createTestContext,
  integratorOf,
  pushMasterData,
  startTestWebhookWorker,
  startWebhookReceiver,
  subscribe,
  verifyReceived,
  waitFor,
  type Integrator,
  type JsonNode,
  type ReceivedRequest,
  type TestContext,
  type WebhookReceiver,
} from '@wms/testing';

const EVENTS = [
  'asn.received',
  'asn.completed',
  'order.allocated',
  'order.released',
  'order.shipped',
  'order.cancelled',
  'stock.adjusted',
  'cyclecount.variance',
] as const;
type EventName = (typeof EVENTS)[number];

/**
 * `data` of each event: the interface's three fields of `order.shipped`, and CONTRACT.md section 5's fields of
 * the others (each carries `tenantId`). Fields neither names are tolerated.
 */
const DATA: Record<EventName, Record<string, unknown>> = {
  'asn.received': { asnNo: a.string(), grnNo: a.string(), warehouseCode: 'WH1', lines: a.nonEmptyArray() },
  'asn.completed': { asnNo: a.string(), warehouseCode: 'WH1' },
  'order.allocated': { orderNo: a.string(), warehouseCode: 'WH1', lines: a.nonEmptyArray() },
  'order.released': { orderNo: a.string(), warehouseCode: 'WH1', pickTasks: a.nonEmptyArray() },
  'order.shipped': { orderNo: a.string(), shipmentNo: a.string(), trackingNo: '1Z-6' },
  'order.cancelled': { orderNo: a.string(), referenceNo: 'SO-6-CANCEL', previousStatus: a.string() },
  'stock.adjusted': {
    warehouseCode: 'WH1',
    locationCode: a.string(),
    sku: 'PLAIN',
    lotNo: a.stringOrNull(),
    qtyDelta: a.number(),
    qtyOnHand: a.number(),
    reason: a.string(),
  },
  'cyclecount.variance': {
    warehouseCode: 'WH1',
    locationCode: a.string(),
    sku: 'PLAIN',
    lotNo: a.stringOrNull(),
    systemQty: a.number(),
    countedQty: a.number(),
    variance: a.number(),
  },
};

/** The lines and tasks inside the events' data, each element with its fields' types. */
const ELEMENTS: Partial<Record<EventName, [string, Record<string, unknown>]>> = {
  'asn.received': ['lines', { lineNo: a.integer(), sku: a.string(), expectedQty: a.number(), receivedQty: a.number() }],
  'order.allocated': [
    'lines',
    { lineNo: a.integer(), sku: a.string(), qtyOrdered: a.number(), qtyAllocated: a.number() },
  ],
  'order.released': [
    'pickTasks',
    { id: a.string(), sku: a.string(), locationCode: a.string(), lotNo: a.stringOrNull(), qty: a.number() },
  ],
};

/** Section 6 of the interface: every event type reaches a subscriber registered with a url and events only. */
describe('interface 6: events', () => {
  let ctx: TestContext;
  let receiver: WebhookReceiver;
  let integrator: Integrator;
  let secret: string;
  const received = new Map<string, ReceivedRequest>();

  const order = (referenceNo: string, qtyOrdered: number) => ({
    warehouseCode: 'WH1',
    customerCode: 'CUST',
    requiredDate: '2030-03-01',
    shipTo: { name: 'Jane Doe', address: '1 Main St' },
    referenceNo,
    lines: [{ lineNo: 1, sku: 'PLAIN', uomCode: 'EA', qtyOrdered }],
  });
  const ok = async (answer: Promise<{ status: number; body: JsonNode }>) => {
    const { status, body } = await answer;
    if (status >= 300) throw new Error(`answered ${status}: ${JSON.stringify(body)}`);
    return body;
  };

  beforeAll(async () => {
    ctx = await createTestContext('conformance-events', { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
    const gateway = await ctx.startGateway();
    receiver = await startWebhookReceiver();
    integrator = await integratorOf(gateway.url, 'EVENTS');
    ({ secret } = await subscribe(integrator, receiver.urlFor('/erp'), [...EVENTS]));
    startTestWebhookWorker(ctx);
    await pushMasterData(integrator);
    const { call, staff } = integrator;

    // Inbound: a partial receipt, then the rest.
    const asn = await ok(
      call('POST', '/asn', {
        warehouseCode: 'WH1',
        supplierCode: 'SUP',
        expectedDate: '2030-01-15',
        referenceNo: 'PO-6',
        lines: [{ lineNo: 1, sku: 'PLAIN', uomCode: 'EA', expectedQty: 10 }],
      }),
    );
    const asnNo = String(asn.data.asnNo);
    for (const qty of [4, 6]) {
      await ok(
        call('POST', '/grn', {
          warehouseCode: 'WH1',
          asnNo,
          lines: [{ asnLineNo: 1, sku: 'PLAIN', uomCode: 'EA', qty }],
        }),
      );
    }
    // Outbound: allocate, release, pick and ship one order; cancel another.
    const shipped = String((await ok(call('POST', '/orders', order('SO-6-SHIP', 3)))).data.orderNo);
    await ok(staff('POST', `/orders/${shipped}/allocate`));
    const released = await ok(staff('POST', `/orders/${shipped}/release`));
    for (const task of released.pickTasks) await ok(staff('POST', `/pick-tasks/${String(task.id)}/confirm`, {}));
    await ok(staff('POST', `/orders/${shipped}/ship`, { carrier: 'UPS', trackingNo: '1Z-6' }));
    const cancelled = String((await ok(call('POST', '/orders', order('SO-6-CANCEL', 1)))).data.orderNo);
    await ok(call('POST', `/orders/${cancelled}/cancel`));
    // Inventory: an adjustment and a count that differs.
    await ok(
      staff('POST', '/stock/adjustments', {
        warehouseCode: 'WH1',
        locationCode: 'RECEIVING',
        sku: 'PLAIN',
        qtyDelta: 2,
        reason: 'found',
      }),
    );
    await ok(
      staff('POST', '/cycle-counts', { warehouseCode: 'WH1', locationCode: 'RECEIVING', sku: 'PLAIN', countedQty: 1 }),
    );

    await waitFor(
      () => {
        for (const request of receiver.requestsTo('/erp')) {
          const event = String((JSON.parse(request.body) as { event: string }).event);
          if (!received.has(event)) received.set(event, request);
        }
        return EVENTS.every((event) => received.has(event));
      },
      30_000,
      'one delivery of every event type',
    );
  });
  afterAll(async () => {
    await receiver.close();
    await ctx.close();
  });

  it.each(EVENTS)(
    'when %s happens, the subscriber gets { event, timestamp, data } with the fields of its data',
    (event) => {
      const delivery = received.get(event)!;
      const body = JSON.parse(delivery.body) as { event: string; timestamp: string; data: Record<string, JsonNode> };

      expect(delivery.headers['content-type']).toMatch(/^application\/json/);
      expect(verifyReceived(delivery, secret)).toBe(true);
      expect(body).toEqual(a.object({ event, timestamp: expect.stringMatching(ISO_UTC), data: a.object({}) }));
      expect(body.data).toEqual(a.object({ tenantId: integrator.tenantId, ...DATA[event] }));
      const elements = ELEMENTS[event];
      if (elements) {
        const [field, shape] = elements;
        for (const element of body.data[field]!) expect(element).toEqual(a.object(shape));
      }
    },
  );
});
