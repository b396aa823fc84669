import { createWebhookDeliveryQueue, type WebhookDeliveryQueue } from '@wms/webhooks';
import {
  createApiKey,
  createMasterData,
  createTenantWithWarehouse,
  createTestContext,
  relayOver,
  request,
  type JsonNode,
  type TestContext,
  type TestGateway,
} from '@wms/testing';

const BASE = '/api/v1/integration/v1';

/**
 * Finding documents by the client's own number (referenceNo on the order, ASN and return lists) and what the
 * order events tell a shop: its referenceNo on every order event, and on order.shipped the carrier and the
 * lines and lots that left.
 */
describe('integration lists by referenceNo, and the order events a shop tells its customer from', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let queue: WebhookDeliveryQueue;
  let tenantId: string;
  let key: string;

  beforeAll(async () => {
    ctx = await createTestContext('order-references');
    gateway = await ctx.startGateway();
    queue = createWebhookDeliveryQueue(ctx.runtime.redis, ctx.config.redisKeyPrefix, 3);
    ({
      tenant: { id: tenantId },
    } = await createTenantWithWarehouse(ctx, undefined, 'WH1'));
    await createMasterData(ctx, tenantId, {
      items: [{ sku: 'PLAIN' }, { sku: 'LOT', tracking: 'lot' }],
      partners: [
        { code: 'CUST', type: 'customer' },
        { code: 'SUP', type: 'supplier' },
      ],
      locations: [{ warehouseCode: 'WH1', code: 'A-01' }],
    });
    await ctx.runtime.db.sequelize.transaction((transaction) =>
      ctx.services.grns.receive(
        { tenantId, transaction },
        {
          warehouseCode: 'WH1',
          lines: [
            { sku: 'PLAIN', uomCode: 'EA', qty: 10, locationCode: 'A-01' },
            { sku: 'LOT', uomCode: 'EA', qty: 3, lotNo: 'L1', expiryDate: '2030-01-01', locationCode: 'A-01' },
            { sku: 'LOT', uomCode: 'EA', qty: 3, lotNo: 'L2', expiryDate: '2031-01-01', locationCode: 'A-01' },
          ],
        },
      ),
    );
    key = (await createApiKey(ctx, { tenantId })).rawKey;
  });
  afterAll(async () => {
    await queue.close();
    await ctx.close();
  });

  const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}, apiKey = key) =>
    request(gateway.url, method, `${BASE}${path}`, { body, headers: { 'x-api-key': apiKey, ...headers } });

  const order = (referenceNo: string, lines: Array<[string, number]>) => ({
    warehouseCode: 'WH1',
    customerCode: 'CUST',
    referenceNo,
    lines: lines.map(([sku, qtyOrdered], n) => ({ lineNo: n + 1, sku, uomCode: 'EA', qtyOrdered })),
  });

  /** Allocates, releases, picks and ships an order as the warehouse would. */
  async function ship(orderNo: string, shipping: { carrier?: string; trackingNo?: string }) {
    await ctx.runtime.db.sequelize.transaction(async (transaction) => {
      const context = { tenantId, transaction };
      await ctx.services.allocation.allocate(context, orderNo);
      await ctx.services.picking.release(context, orderNo);
      await ctx.services.picking.pickAll(context, orderNo);
      await ctx.services.shipping.ship(context, orderNo, shipping);
    });
  }

  it('when orders and ASNs are listed by referenceNo, only the one with that reference comes', async () => {
    const first = await call('POST', '/orders', order('SHOP-1001', [['PLAIN', 1]]));
    await call('POST', '/orders', order('SHOP-1002', [['PLAIN', 1]]));
    const po = {
      warehouseCode: 'WH1',
      supplierCode: 'SUP',
      lines: [{ lineNo: 1, sku: 'PLAIN', uomCode: 'EA', expectedQty: 1 }],
    };
    const asn = await call('POST', '/asn', { ...po, referenceNo: 'PO-77' });
    await call('POST', '/asn', { ...po, referenceNo: 'PO-78' });

    const orders = await call('GET', '/orders?referenceNo=SHOP-1001');
    const asns = await call('GET', '/asn?referenceNo=PO-77');
    const none = await call('GET', '/orders?referenceNo=SHOP-9999');
    const byStatus = await call('GET', '/orders?referenceNo=SHOP-1001&status=cancelled');

    expect(orders.status).toBe(200);
    expect(orders.body.data.map((entry) => [entry.orderNo, entry.referenceNo])).toEqual([
      [first.body.data.orderNo, 'SHOP-1001'],
    ]);
    expect(orders.body.nextCursor).toBeNull();
    expect(asns.body.data.map((entry) => [entry.asnNo, entry.referenceNo])).toEqual([[asn.body.data.asnNo, 'PO-77']]);
    expect(none.body.data).toEqual([]);
    expect(byStatus.body.data).toEqual([]);
  });

  it("when another tenant's key lists by this tenant's referenceNo, nothing comes", async () => {
    await call('POST', '/orders', order('SHOP-2001', [['PLAIN', 1]]));
    const other = await createTenantWithWarehouse(ctx, undefined, 'WH1');
    const otherKey = (await createApiKey(ctx, { tenantId: other.tenant.id })).rawKey;

    const response = await call('GET', '/orders?referenceNo=SHOP-2001', undefined, {}, otherKey);

    expect(response.status).toBe(200);
    expect(response.body.data).toEqual([]);
  });

  it('when returns are listed by referenceNo, the returns of the order with that reference come', async () => {
    const created = await call('POST', '/orders', order('SHOP-3001', [['PLAIN', 2]]));
    const orderNo = created.body.data.orderNo as unknown as string;
    await ship(orderNo, {});
    await call('POST', '/returns', { rmaNo: 'RMA-3001-A', orderNo, lines: [{ sku: 'PLAIN', qty: 1 }] });
    await call('POST', '/returns', { rmaNo: 'RMA-3001-B', orderNo, lines: [{ sku: 'PLAIN', qty: 1 }] });

    const returns = await call('GET', '/returns?referenceNo=SHOP-3001');
    const others = await call('GET', '/returns?referenceNo=SHOP-1001');

    expect(returns.body.data.map((entry) => entry.rmaNo).sort()).toEqual(['RMA-3001-A', 'RMA-3001-B']);
    expect(others.body.data).toEqual([]);
  });

  it('when a referenceNo is empty or too long, the list answers 400 VALIDATION_FAILED', async () => {
    const empty = await call('GET', '/orders?referenceNo=');
    const long = await call('GET', `/asn?referenceNo=${'R'.repeat(101)}`);

    expect(empty.status).toBe(400);
    expect(empty.body).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(long.status).toBe(400);
  });

  it('when an order ships, every order event carries its referenceNo and order.shipped the carrier, lines and lots', async () => {
    const created = await call(
      'POST',
      '/orders',
      order('SHOP-4001', [
        ['LOT', 4],
        ['PLAIN', 1.5],
      ]),
    );
    const orderNo = created.body.data.orderNo as unknown as string;

    await ship(orderNo, { carrier: 'DHL', trackingNo: '00340434161094042557' });

    await relayOver(ctx, queue).fanOut();
    const newest = (await createApiKey(ctx, { tenantId, scopes: ['read'], apiVersion: '2026-12-01' })).rawKey;
    const [seed, decimals] = await Promise.all([key, newest].map((k) => feedOf(k, orderNo)));
    expect(seed.map((event) => [event.event, event.data.referenceNo])).toEqual([
      ['order.allocated', 'SHOP-4001'],
      ['order.released', 'SHOP-4001'],
      ['order.shipped', 'SHOP-4001'],
    ]);
    const shipped = seed[2]!.data;
    expect(shipped).toEqual({
      tenantId,
      orderNo,
      referenceNo: 'SHOP-4001',
      shipmentNo: expect.stringMatching(/^SHP-\d{8}-\d{6}$/),
      trackingNo: '00340434161094042557',
      carrier: 'DHL',
      warehouseCode: 'WH1',
      lines: [
        { lineNo: 1, sku: 'LOT', uomCode: 'EA', lotNo: 'L1', qty: 3 },
        { lineNo: 1, sku: 'LOT', uomCode: 'EA', lotNo: 'L2', qty: 1 },
        { lineNo: 2, sku: 'PLAIN', uomCode: 'EA', lotNo: null, qty: 1.5 },
      ],
    });
    expect(decimals[2]!.data.lines.map((line) => line.qty)).toEqual(['3.0000', '1.0000', '1.5000']);
  });

  /** The order's events in the feed as a key reads them (in its version). */
  async function feedOf(apiKey: string, orderNo: string): Promise<JsonNode[]> {
    const response = await call('GET', '/events?limit=500', undefined, {}, apiKey);
    expect(response.status).toBe(200);
    return response.body.data.filter((event) => String(event.data.orderNo) === orderNo);
  }
});
