import { QueryTypes } from 'sequelize';
import {
  createApiKey,
  createMasterData,
  createSandboxTenant,
  createSubscription,
  createTenantWithWarehouse,
  createTestContext,
  request,
  startTestWebhookWorker,
  startWebhookReceiver,
  verifyReceived,
  waitFor,
  type TestContext,
  type TestGateway,
  type WebhookReceiver,
} from '@wms/testing';

const BASE = '/api/v1/integration/v1';

interface SimulationAnswer {
  status: string;
  data: { simulationId: string; type: string; events: Array<{ id: string; event: string }> };
  requestId: string;
  /** On a refusal. */
  code?: string;
  message?: string;
}

describe('sandbox simulations: real warehouse operations for the keys of sandbox tenants', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let receiver: WebhookReceiver;
  let sandboxTenantId: string;
  let sandboxKey: { id: string; rawKey: string };
  let otherKey: string;
  let otherTenantId: string;
  let reference = 0;

  beforeAll(async () => {
    ctx = await createTestContext('simulations', { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
    gateway = await ctx.startGateway();
    startTestWebhookWorker(ctx);
    receiver = await startWebhookReceiver();
    const { tenant } = await createSandboxTenant(ctx);
    sandboxTenantId = tenant.id;
    sandboxKey = await createApiKey(ctx, { tenantId: tenant.id });
    const other = await createTenantWithWarehouse(ctx);
    otherTenantId = other.tenant.id;
    otherKey = (await createApiKey(ctx, { tenantId: other.tenant.id })).rawKey;
    for (const [path, body] of [
      ['/items', { sku: 'WIDGET', name: 'Widget', baseUomCode: 'EA' }],
      ['/items', { sku: 'SCARCE', name: 'Scarce', baseUomCode: 'EA' }],
      ['/partners', { code: 'CUST', name: 'Customer', type: 'customer' }],
      ['/partners', { code: 'SUP', name: 'Supplier', type: 'supplier' }],
    ] as const) {
      const written = await post(path, body);
      if (written.status >= 300) throw new Error(`${path}: ${written.status} ${JSON.stringify(written.body)}`);
    }
  });
  afterAll(async () => {
    await receiver.close();
    await ctx.close();
  });

  const post = (path: string, body: unknown, headers: Record<string, string> = {}, apiKey = sandboxKey.rawKey) =>
    request(gateway.url, 'POST', `${BASE}${path}`, { body, headers: { 'x-api-key': apiKey, ...headers } });
  const get = (path: string, apiKey = sandboxKey.rawKey) =>
    request(gateway.url, 'GET', `${BASE}${path}`, { headers: { 'x-api-key': apiKey } });
  const simulate = (body: unknown, headers: Record<string, string> = {}, apiKey = sandboxKey.rawKey) =>
    request<SimulationAnswer>(gateway.url, 'POST', `${BASE}/simulations`, {
      body,
      headers: { 'x-api-key': apiKey, ...headers },
    });
  const createOrder = async (sku: string, qtyOrdered: number): Promise<string> => {
    const created = await post('/orders', {
      warehouseCode: 'WH1',
      customerCode: 'CUST',
      referenceNo: `SIM-SO-${++reference}`,
      lines: [{ lineNo: 1, sku, uomCode: 'EA', qtyOrdered }],
    });
    expect(created.status).toBe(201);
    return String(created.body.data.orderNo);
  };
  const onHand = async (sku: string): Promise<number> => {
    const stock = await get(`/stock?sku=${sku}`);
    return Number(stock.body.data.totalOnHand);
  };
  const eventCount = async (tenantId: string): Promise<number> => {
    const [row] = await ctx.runtime.db.sequelize.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM events WHERE tenant_id = :tenantId',
      { replacements: { tenantId }, type: QueryTypes.SELECT },
    );
    return row!.n;
  };

  it('when a sandbox key ships an order by simulation, it ships and the subscriber gets order.shipped with sandbox: true', async () => {
    const subscription = await createSubscription(ctx, {
      url: receiver.urlFor('/shipped'),
      events: ['order.shipped'],
      tenantId: sandboxTenantId,
    });
    const stocked = await simulate({ type: 'stock.adjusted', sku: 'WIDGET', qtyDelta: 10 });
    expect(stocked.status).toBe(202);
    expect(stocked.body.data.events.map((event) => event.event)).toEqual(['stock.adjusted']);
    const orderNo = await createOrder('WIDGET', 4);

    const shipped = await simulate({ type: 'order.shipped', orderNo, trackingNo: 'TRACK-1' });

    expect(shipped.status).toBe(202);
    expect(shipped.body).toMatchObject({ status: 'success', requestId: expect.any(String) });
    expect(shipped.body.data).toMatchObject({ simulationId: expect.any(String), type: 'order.shipped' });
    expect(shipped.body.data.events.map((event) => event.event)).toEqual([
      'order.allocated',
      'order.released',
      'order.shipped',
    ]);
    const order = await get(`/orders/${orderNo}`);
    expect(order.body.data).toMatchObject({ status: 'shipped', summary: { totalShipped: 4 } });
    expect(await onHand('WIDGET')).toBe(6);

    const [delivery] = await receiver.waitForRequests('/shipped', 1);
    expect(verifyReceived(delivery!, subscription.secret)).toBe(true);
    const body = JSON.parse(delivery!.body) as Record<string, unknown>;
    expect(body).toMatchObject({
      id: shipped.body.data.events[2]!.id,
      event: 'order.shipped',
      sandbox: true,
      data: { orderNo, trackingNo: 'TRACK-1', tenantId: sandboxTenantId },
    });
    const again = await simulate({ type: 'order.shipped', orderNo });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'INVALID_STATE' });
  });

  it('lists a sandbox tenant’s events in the feed with sandbox: true, and audits the run as the system with the key', async () => {
    const counted = await simulate({ type: 'stock.adjusted', sku: 'WIDGET', qtyDelta: 1, reason: 'found one' });
    expect(counted.status).toBe(202);
    const eventId = counted.body.data.events[0]!.id;

    const entry = await waitFor(
      async () => (await get('/events?limit=500')).body.data.find((event) => String(event.id) === eventId),
      (found) => found !== undefined,
      10_000,
      'the simulated event in the feed',
    );

    expect(entry).toMatchObject({ event: 'stock.adjusted', sandbox: true, data: { reason: 'found one', qtyDelta: 1 } });
    const audit = await ctx.services.audit.list({ tenantId: sandboxTenantId, entityType: 'simulation', limit: 50 });
    const run = audit.data.find((row) => row.entityId === counted.body.data.simulationId);
    expect(run).toMatchObject({
      action: 'simulation.run',
      actorUserId: null,
      changes: { type: 'stock.adjusted', apiKeyId: sandboxKey.id, sku: 'WIDGET', events: [{ id: eventId }] },
    });
  });

  it('receives an ASN’s open lines at RECEIVING, then answers 409 NOTHING_TO_RECEIVE for the received ASN', async () => {
    const created = await post('/asn', {
      warehouseCode: 'WH1',
      supplierCode: 'SUP',
      referenceNo: `SIM-PO-${++reference}`,
      lines: [{ lineNo: 1, sku: 'WIDGET', uomCode: 'EA', expectedQty: 5 }],
    });
    const asnNo = String(created.body.data.asnNo);
    const before = await onHand('WIDGET');

    const received = await simulate({ type: 'asn.received', asnNo });
    const again = await simulate({ type: 'asn.received', asnNo });

    expect(received.status).toBe(202);
    expect(received.body.data.events.map((event) => event.event)).toEqual(['asn.received', 'asn.completed']);
    const asn = await get(`/asn/${asnNo}`);
    expect(asn.body.data).toMatchObject({ status: 'completed', lines: [{ receivedQty: 5 }] });
    expect(asn.body.data.grns[0].lines[0]).toMatchObject({ locationCode: 'RECEIVING', qty: 5 });
    expect(await onHand('WIDGET')).toBe(before + 5);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ status: 'error', code: 'NOTHING_TO_RECEIVE' });
  });

  it('counts a stock row: a difference appends stock.adjusted and cyclecount.variance; no difference is 409 NO_VARIANCE', async () => {
    const before = await onHand('WIDGET');

    const counted = await simulate({ type: 'cyclecount.variance', sku: 'WIDGET', countedQty: before + 2 });
    const same = await simulate({ type: 'cyclecount.variance', sku: 'WIDGET', countedQty: before + 2 });

    expect(counted.status).toBe(202);
    expect(counted.body.data.events.map((event) => event.event)).toEqual(['stock.adjusted', 'cyclecount.variance']);
    expect(await onHand('WIDGET')).toBe(before + 2);
    expect(same.status).toBe(409);
    expect(same.body).toMatchObject({ code: 'NO_VARIANCE' });
  });

  it('when the stock covers part of an order, it answers 409 INSUFFICIENT_STOCK and changes nothing', async () => {
    await simulate({ type: 'stock.adjusted', sku: 'SCARCE', qtyDelta: 1 });
    const orderNo = await createOrder('SCARCE', 3);
    const eventsBefore = await eventCount(sandboxTenantId);
    const stockBefore = await onHand('SCARCE');

    const refused = await simulate({ type: 'order.shipped', orderNo });

    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ status: 'error', code: 'INSUFFICIENT_STOCK' });
    expect(String(refused.body.message)).toContain(orderNo);
    const order = await get(`/orders/${orderNo}`);
    expect(order.body.data).toMatchObject({ status: 'open', summary: { totalAllocated: 0 } });
    expect(await onHand('SCARCE')).toBe(stockBefore);
    expect((await get('/stock?sku=SCARCE')).body.data).toMatchObject({ totalAllocated: 0, totalAvailable: 1 });
    expect(await eventCount(sandboxTenantId)).toBe(eventsBefore);
  });

  it('answers 404 for an order or ASN the tenant does not have, and 400 for a field of another type', async () => {
    const order = await simulate({ type: 'order.shipped', orderNo: 'SO-NOPE' });
    const asn = await simulate({ type: 'asn.received', asnNo: 'ASN-NOPE' });
    const mixed = await simulate({ type: 'order.shipped', orderNo: 'SO-1', sku: 'WIDGET' });

    expect(order.status).toBe(404);
    expect(asn.status).toBe(404);
    expect(mixed.status).toBe(400);
    expect(mixed.body).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ path: 'sku' }] });
  });

  it('leaves sandbox out of the bodies of a tenant that is not a sandbox', async () => {
    const other = await createTenantWithWarehouse(ctx);
    const subscription = await createSubscription(ctx, {
      url: receiver.urlFor('/production'),
      events: ['stock.adjusted'],
      tenantId: other.tenant.id,
    });
    await createMasterData(ctx, other.tenant.id, { items: [{ sku: 'BOLT' }] });
    await ctx.runtime.db.sequelize.transaction((transaction) =>
      ctx.services.adjustments.adjust(
        { tenantId: other.tenant.id, transaction },
        { warehouseCode: 'WH1', locationCode: 'RECEIVING', sku: 'BOLT', qtyDelta: 2, reason: 'found' },
      ),
    );

    const [delivery] = await receiver.waitForRequests('/production', 1);

    expect(verifyReceived(delivery!, subscription.secret)).toBe(true);
    const body = JSON.parse(delivery!.body) as Record<string, unknown>;
    expect(body).toMatchObject({ event: 'stock.adjusted', data: { sku: 'BOLT' } });
    expect(Object.keys(body).sort()).toEqual(['data', 'event', 'id', 'sequence', 'timestamp']);
  });

  it('when a key of a tenant that is not a sandbox asks, it answers 403 NOT_A_SANDBOX', async () => {
    const refused = await simulate({ type: 'stock.adjusted', sku: 'WIDGET', qtyDelta: 1 }, {}, otherKey);

    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ status: 'error', code: 'NOT_A_SANDBOX' });
  });

  it('lets a cross-tenant key simulate in the sandbox tenant it names, and refuses the tenant that is not one', async () => {
    const crossTenant = (await createApiKey(ctx, { tenantId: null })).rawKey;
    const before = await onHand('WIDGET');

    const named = await simulate(
      { type: 'stock.adjusted', sku: 'WIDGET', qtyDelta: 1, tenantId: sandboxTenantId },
      {},
      crossTenant,
    );
    const production = await simulate(
      { type: 'stock.adjusted', sku: 'WIDGET', qtyDelta: 1, tenantId: otherTenantId },
      {},
      crossTenant,
    );

    expect(named.status).toBe(202);
    expect(await onHand('WIDGET')).toBe(before + 1);
    expect(production.status).toBe(403);
    expect(production.body).toMatchObject({ code: 'NOT_A_SANDBOX' });
  });

  it('replays a simulation sent again with the same Idempotency-Key instead of running it twice', async () => {
    const before = await onHand('WIDGET');
    const body = { type: 'stock.adjusted', sku: 'WIDGET', qtyDelta: 3 };

    const first = await simulate(body, { 'idempotency-key': 'sim-replay-1' });
    const second = await simulate(body, { 'idempotency-key': 'sim-replay-1' });

    expect(first.status).toBe(202);
    expect(second.status).toBe(202);
    expect(second.headers.get('idempotent-replay')).toBe('true');
    expect(second.body).toEqual(first.body);
    expect(await onHand('WIDGET')).toBe(before + 3);
  });
});
