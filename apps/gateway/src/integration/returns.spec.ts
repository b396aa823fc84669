import { QueryTypes } from 'sequelize';
import {
  createApiKey,
  createMasterData,
  createSandboxTenant,
  createTenantWithWarehouse,
  createTestContext,
  loginAs,
  request,
  TEST_ADMIN,
  type JsonNode,
  type TestContext,
  type TestGateway,
} from '@wms/testing';

const BASE = '/api/v1/integration/v1';
const API = '/api/v1';

interface OutboxEvent {
  event: string;
  sequence: number;
  data: JsonNode;
}

/**
 * Customer returns against the real service: created through the integration API for a shipped order,
 * received by staff with each disposition (stock checked), completed, cancelled, and refused when they would
 * take back more than was shipped or receive more than they announce. Every test works in a tenant of its
 * own, with an order that shipped PLAIN 4 and LOT (lot L1) 2.
 */
describe('returns (RMA): create, receive, complete, cancel', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let admin: string;
  let reference = 0;

  beforeAll(async () => {
    ctx = await createTestContext('returns');
    gateway = await ctx.startGateway();
    await ctx.startIngestWorker();
    admin = await loginAs(gateway.url, TEST_ADMIN.email, TEST_ADMIN.password);
  });
  afterAll(() => ctx.close());

  /** A tenant whose order shipped PLAIN 4 (from A-01) and LOT 2 of lot L1; answers its key and the orderNo. */
  async function tenantWithShippedOrder({ sandbox = false } = {}) {
    const { tenant } = sandbox
      ? await createSandboxTenant(ctx, undefined, 'WH1')
      : await createTenantWithWarehouse(ctx, undefined, 'WH1');
    const tenantId = tenant.id;
    await createMasterData(ctx, tenantId, {
      items: [{ sku: 'PLAIN' }, { sku: 'LOT', tracking: 'lot' }, { sku: 'NEVER' }],
      partners: [{ code: 'CUST', type: 'customer' }],
      locations: [{ warehouseCode: 'WH1', code: 'A-01' }],
    });
    await ctx.runtime.db.sequelize.query(
      `INSERT INTO locations (tenant_id, warehouse_id, code, type)
       SELECT tenant_id, warehouse_id, 'Q-01', 'quarantine' FROM locations WHERE tenant_id = $1 AND code = 'A-01'`,
      { bind: [tenantId], type: QueryTypes.INSERT },
    );
    const orderNo = await ctx.runtime.db.sequelize.transaction(async (transaction) => {
      const context = { tenantId, transaction };
      await ctx.services.grns.receive(context, {
        warehouseCode: 'WH1',
        lines: [
          { sku: 'PLAIN', uomCode: 'EA', qty: 10, locationCode: 'A-01' },
          { sku: 'LOT', uomCode: 'EA', qty: 5, lotNo: 'L1', locationCode: 'A-01' },
        ],
      });
      const [order] = await ctx.services.orders.createOrders(context, [
        {
          warehouseCode: 'WH1',
          customerCode: 'CUST',
          priority: 0,
          referenceNo: `RET-${++reference}`,
          lines: [
            { lineNo: 1, sku: 'PLAIN', uomCode: 'EA', qtyOrdered: 4 },
            { lineNo: 2, sku: 'LOT', uomCode: 'EA', qtyOrdered: 2 },
          ],
        },
      ]);
      if (!order?.ok) throw new Error('order not created');
      return order.data.orderNo as string;
    });
    await ship(tenantId, orderNo);
    const key = (await createApiKey(ctx, { tenantId })).rawKey;
    return { tenantId, key, orderNo };
  }

  async function ship(tenantId: string, orderNo: string) {
    await ctx.runtime.db.sequelize.transaction(async (transaction) => {
      const context = { tenantId, transaction };
      await ctx.services.allocation.allocate(context, orderNo);
      await ctx.services.picking.release(context, orderNo);
      await ctx.services.picking.pickAll(context, orderNo);
      await ctx.services.shipping.ship(context, orderNo, {});
    });
  }

  const integration = (key: string) => ({
    post: (path: string, body: unknown) =>
      request(gateway.url, 'POST', `${BASE}${path}`, { body, headers: { 'x-api-key': key } }),
    get: (path: string) => request(gateway.url, 'GET', `${BASE}${path}`, { headers: { 'x-api-key': key } }),
  });
  const staff = (method: string, path: string, tenantId: string, body?: unknown) =>
    request(gateway.url, method, `${API}${path}?tenantId=${tenantId}`, { token: admin, body });

  /** Stock of a sku as [location, location type, lot, on hand], in location order. */
  async function stockOf(tenantId: string, sku: string) {
    const rows = await ctx.runtime.db.sequelize.query<{ location: string; type: string; lot: string; onHand: number }>(
      `SELECT l.code AS location, l.type, s.lot_no AS lot, s.qty_on_hand::float8 AS "onHand"
       FROM stock_rows s JOIN locations l ON l.id = s.location_id JOIN items i ON i.id = s.item_id
       WHERE s.tenant_id = $1 AND i.sku = $2 ORDER BY l.code, s.lot_no`,
      { bind: [tenantId, sku], type: QueryTypes.SELECT },
    );
    return rows.map((row) => [row.location, row.type, row.lot, row.onHand]);
  }

  /**
   * The tenant's ledger entries of cause return as [location, sku, lot, on-hand delta, on hand after, document],
   * by location and sku (one statement logs its rows in stock row order), then in the order written.
   */
  async function returnMovements(tenantId: string) {
    const rows = await ctx.runtime.db.sequelize.query<{
      location: string;
      sku: string;
      lot: string;
      delta: number;
      after: number;
      documentNo: string;
    }>(
      `SELECT l.code AS location, i.sku, m.lot_no AS lot, m.qty_on_hand_delta::float8 AS delta,
              m.qty_on_hand_after::float8 AS after, m.document_no AS "documentNo"
       FROM stock_movements m JOIN locations l ON l.id = m.location_id JOIN items i ON i.id = m.item_id
       WHERE m.tenant_id = $1 AND m.cause = 'return' ORDER BY l.code, i.sku, m.id`,
      { bind: [tenantId], type: QueryTypes.SELECT },
    );
    return rows.map((row) => [row.location, row.sku, row.lot, row.delta, row.after, row.documentNo]);
  }

  /** Stock rows of the tenant whose ledger entries do not sum to their balance (none, when the ledger holds). */
  function ledgerMismatches(tenantId: string) {
    return ctx.runtime.db.sequelize.query(
      `SELECT s.id, s.qty_on_hand, COALESCE(sum(m.qty_on_hand_delta), 0) AS ledger
       FROM stock_rows s LEFT JOIN stock_movements m ON m.stock_row_id = s.id
       WHERE s.tenant_id = $1 GROUP BY s.id HAVING s.qty_on_hand <> COALESCE(sum(m.qty_on_hand_delta), 0)`,
      { bind: [tenantId], type: QueryTypes.SELECT },
    );
  }

  /** The tenant's return events in the outbox, in the order they were appended. */
  function returnEvents(tenantId: string): Promise<OutboxEvent[]> {
    return ctx.runtime.db.sequelize.query<OutboxEvent>(
      `SELECT event, sequence::int AS sequence, data FROM events
       WHERE tenant_id = $1 AND event LIKE 'return.%' ORDER BY seq`,
      { bind: [tenantId], type: QueryTypes.SELECT },
    );
  }

  it('when a shipped order is returned, it answers 201 with the open return, as its inquiry shows it', async () => {
    const { key, orderNo } = await tenantWithShippedOrder();

    const created = await integration(key).post('/returns', {
      rmaNo: 'RMA-1',
      orderNo,
      lines: [
        { sku: 'PLAIN', qty: 3, reason: 'damaged' },
        { sku: 'LOT', qty: 2, lotNo: 'L1' },
      ],
    });
    const inquiry = await integration(key).get('/returns/RMA-1');

    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      rmaNo: 'RMA-1',
      orderNo,
      warehouseCode: 'WH1',
      status: 'open',
      lines: [
        { lineNo: 1, sku: 'PLAIN', lotNo: null, qty: 3, receivedQty: 0, reason: 'damaged' },
        { lineNo: 2, sku: 'LOT', lotNo: 'L1', qty: 2, receivedQty: 0, reason: null },
      ],
      receipts: [],
    });
    expect(inquiry.status).toBe(200);
    expect(inquiry.body.data).toEqual(created.body.data);
  });

  it('when a return would take back more than was shipped, counting earlier returns, it is 409 RETURN_EXCEEDS_SHIPPED and nothing is stored', async () => {
    const { tenantId, key, orderNo } = await tenantWithShippedOrder();
    const api = integration(key);

    const beyond = await api.post('/returns', { rmaNo: 'RMA-BIG', orderNo, lines: [{ sku: 'PLAIN', qty: 5 }] });
    const first = await api.post('/returns', { rmaNo: 'RMA-A', orderNo, lines: [{ sku: 'PLAIN', qty: 3 }] });
    const second = await api.post('/returns', { rmaNo: 'RMA-B', orderNo, lines: [{ sku: 'PLAIN', qty: 2 }] });
    const neverShipped = await api.post('/returns', { rmaNo: 'RMA-N', orderNo, lines: [{ sku: 'NEVER', qty: 1 }] });
    const rest = await api.post('/returns', { rmaNo: 'RMA-C', orderNo, lines: [{ sku: 'PLAIN', qty: 1 }] });

    expect(beyond.status).toBe(409);
    expect(beyond.body).toMatchObject({ status: 'error', code: 'RETURN_EXCEEDS_SHIPPED' });
    expect(beyond.body.message).toContain(`Order ${orderNo} shipped 4 of item SKU PLAIN`);
    expect(first.status).toBe(201);
    expect(second.status).toBe(409);
    expect(second.body.message).toContain('earlier returns take back 3; 2 cannot be returned (at most 1)');
    expect(neverShipped.status).toBe(409);
    expect(rest.status).toBe(201);
    const stored = await ctx.runtime.db.sequelize.query<{ rmaNo: string }>(
      'SELECT rma_no AS "rmaNo" FROM returns WHERE tenant_id = $1 ORDER BY rma_no',
      { bind: [tenantId], type: QueryTypes.SELECT },
    );
    expect(stored.map((row) => row.rmaNo)).toEqual(['RMA-A', 'RMA-C']);
  });

  it('when the order is not shipped, unknown, or the rmaNo is taken, the return is refused with its reason', async () => {
    const { tenantId, key, orderNo } = await tenantWithShippedOrder();
    const api = integration(key);
    const [open] = await ctx.runtime.db.sequelize.transaction((transaction) =>
      ctx.services.orders.createOrders({ tenantId, transaction }, [
        {
          warehouseCode: 'WH1',
          customerCode: 'CUST',
          priority: 0,
          referenceNo: `RET-${++reference}`,
          lines: [{ lineNo: 1, sku: 'PLAIN', uomCode: 'EA', qtyOrdered: 1 }],
        },
      ]),
    );
    if (!open?.ok) throw new Error('order not created');
    const line = [{ sku: 'PLAIN', qty: 1 }];

    const notShipped = await api.post('/returns', { rmaNo: 'R-1', orderNo: open.data.orderNo, lines: line });
    const unknown = await api.post('/returns', { rmaNo: 'R-2', orderNo: 'SO-NONE', lines: line });
    await api.post('/returns', { rmaNo: 'R-3', orderNo, lines: line });
    const duplicate = await api.post('/returns', { rmaNo: 'R-3', orderNo, lines: line });
    const repeated = await api.post('/returns', { rmaNo: 'R-4', orderNo, lines: [...line, ...line] });
    const missing = await api.get('/returns/R-NONE');

    expect(notShipped.status).toBe(409);
    expect(notShipped.body.code).toBe('INVALID_STATE');
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ code: 'REFERENCE_NOT_FOUND', message: 'Order SO-NONE not found' });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body).toMatchObject({
      code: 'DUPLICATE_REFERENCE',
      message: 'Return with rmaNo R-3 already exists',
    });
    expect(repeated.status).toBe(400);
    expect(repeated.body.code).toBe('VALIDATION_FAILED');
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('Return R-NONE not found');
  });

  it('when staff receive a return in two receipts with each disposition, stock follows and the events tell it', async () => {
    const { tenantId, key, orderNo } = await tenantWithShippedOrder();
    await integration(key).post('/returns', {
      rmaNo: 'RMA-LIFE',
      orderNo,
      lines: [
        { sku: 'PLAIN', qty: 3 },
        { sku: 'LOT', qty: 2, lotNo: 'L1' },
      ],
    });

    const partial = await staff('POST', '/returns/RMA-LIFE/receive', tenantId, {
      lines: [
        { sku: 'PLAIN', qty: 1, disposition: 'restock' },
        { sku: 'PLAIN', qty: 1, disposition: 'quarantine' },
        { sku: 'LOT', qty: 1, disposition: 'scrap' },
      ],
    });

    expect(partial.status).toBe(200);
    expect(partial.body).toMatchObject({
      status: 'partially_received',
      lines: [
        { lineNo: 1, sku: 'PLAIN', qty: 3, receivedQty: 2 },
        { lineNo: 2, sku: 'LOT', qty: 2, receivedQty: 1 },
      ],
      receipts: [
        {
          lines: [
            { lineNo: 1, returnLineNo: 1, sku: 'PLAIN', qty: 1, disposition: 'restock', locationCode: 'RECEIVING' },
            { lineNo: 2, returnLineNo: 1, sku: 'PLAIN', qty: 1, disposition: 'quarantine', locationCode: 'QUARANTINE' },
            { lineNo: 3, returnLineNo: 2, sku: 'LOT', lotNo: 'L1', qty: 1, disposition: 'scrap', locationCode: null },
          ],
        },
      ],
    });
    expect(await stockOf(tenantId, 'PLAIN')).toEqual([
      ['A-01', 'storage', '', 6],
      ['QUARANTINE', 'quarantine', '', 1],
      ['RECEIVING', 'receiving', '', 1],
    ]);
    expect(await stockOf(tenantId, 'LOT')).toEqual([['A-01', 'storage', 'L1', 3]]);

    const over = await staff('POST', '/returns/RMA-LIFE/receive', tenantId, {
      lines: [{ sku: 'PLAIN', qty: 2, disposition: 'restock' }],
    });
    expect(over.status).toBe(409);
    expect(over.body).toMatchObject({ code: 'RECEIPT_EXCEEDS_RETURN' });
    expect(over.body.message).toContain('line 1 (item SKU PLAIN) expects 1 more; 2 cannot be received');
    expect(await stockOf(tenantId, 'PLAIN')).toEqual([
      ['A-01', 'storage', '', 6],
      ['QUARANTINE', 'quarantine', '', 1],
      ['RECEIVING', 'receiving', '', 1],
    ]);

    const rest = await staff('POST', '/returns/RMA-LIFE/receive', tenantId, {
      lines: [
        { sku: 'PLAIN', qty: 1, disposition: 'restock', locationCode: 'A-01' },
        { sku: 'LOT', qty: 1, disposition: 'quarantine', locationCode: 'Q-01' },
      ],
    });

    expect(rest.status).toBe(200);
    expect(rest.body).toMatchObject({ status: 'received', receivedAt: expect.any(String) });
    expect(await stockOf(tenantId, 'PLAIN')).toEqual([
      ['A-01', 'storage', '', 7],
      ['QUARANTINE', 'quarantine', '', 1],
      ['RECEIVING', 'receiving', '', 1],
    ]);
    expect(await stockOf(tenantId, 'LOT')).toEqual([
      ['A-01', 'storage', 'L1', 3],
      ['Q-01', 'quarantine', 'L1', 1],
    ]);
    expect(await returnMovements(tenantId)).toEqual([
      ['A-01', 'PLAIN', '', 1, 7, 'RMA-LIFE'],
      ['Q-01', 'LOT', 'L1', 1, 1, 'RMA-LIFE'],
      ['QUARANTINE', 'PLAIN', '', 1, 1, 'RMA-LIFE'],
      ['RECEIVING', 'PLAIN', '', 1, 1, 'RMA-LIFE'],
    ]);
    expect(await ledgerMismatches(tenantId)).toEqual([]);
    const events = await returnEvents(tenantId);
    expect(events.map((event) => [event.event, event.sequence, event.data.status])).toEqual([
      ['return.received', 1, 'partially_received'],
      ['return.received', 2, 'received'],
      ['return.completed', 3, 'received'],
    ]);
    expect(events[0]!.data).toEqual({
      tenantId,
      rmaNo: 'RMA-LIFE',
      orderNo,
      warehouseCode: 'WH1',
      receiptId: expect.any(String),
      status: 'partially_received',
      lines: [
        { sku: 'PLAIN', lotNo: null, qty: 1, disposition: 'restock', locationCode: 'RECEIVING' },
        { sku: 'PLAIN', lotNo: null, qty: 1, disposition: 'quarantine', locationCode: 'QUARANTINE' },
        { sku: 'LOT', lotNo: 'L1', qty: 1, disposition: 'scrap', locationCode: null },
      ],
    });
    expect(events[2]!.data.lines).toEqual([
      { lineNo: 1, sku: 'PLAIN', lotNo: null, qty: 3, receivedQty: 3 },
      { lineNo: 2, sku: 'LOT', lotNo: 'L1', qty: 2, receivedQty: 2 },
    ]);

    const closed = await staff('POST', '/returns/RMA-LIFE/close', tenantId);
    const again = await staff('POST', '/returns/RMA-LIFE/receive', tenantId, {
      lines: [{ sku: 'PLAIN', qty: 1, disposition: 'scrap' }],
    });
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({ status: 'closed', closedAt: expect.any(String) });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('INVALID_STATE');
    expect(await returnEvents(tenantId)).toHaveLength(3);
  });

  it('when a receipt puts restocked goods in quarantine or quarantined goods in storage, it is 400 and nothing changes', async () => {
    const { tenantId, key, orderNo } = await tenantWithShippedOrder();
    await integration(key).post('/returns', { rmaNo: 'RMA-LOC', orderNo, lines: [{ sku: 'PLAIN', qty: 2 }] });

    const refused = await staff('POST', '/returns/RMA-LOC/receive', tenantId, {
      lines: [
        { sku: 'PLAIN', qty: 1, disposition: 'restock', locationCode: 'Q-01' },
        { sku: 'PLAIN', qty: 1, disposition: 'quarantine', locationCode: 'A-01' },
      ],
    });
    const scrapAt = await staff('POST', '/returns/RMA-LOC/receive', tenantId, {
      lines: [{ sku: 'PLAIN', qty: 1, disposition: 'scrap', locationCode: 'A-01' }],
    });
    const notInReturn = await staff('POST', '/returns/RMA-LOC/receive', tenantId, {
      lines: [{ sku: 'LOT', qty: 1, lotNo: 'L1', disposition: 'restock' }],
    });

    expect(refused.status).toBe(400);
    expect(refused.body.details).toEqual([
      { path: 'lines.0.locationCode', message: expect.stringContaining('Q-01 is a quarantine location') },
      { path: 'lines.1.locationCode', message: expect.stringContaining('A-01 is of type storage') },
    ]);
    expect(scrapAt.status).toBe(400);
    expect(notInReturn.status).toBe(400);
    expect(notInReturn.body.message).toContain('return RMA-LOC has no line of item SKU LOT');
    expect(await stockOf(tenantId, 'PLAIN')).toEqual([['A-01', 'storage', '', 6]]);
    expect((await integration(key).get('/returns/RMA-LOC')).body.data).toMatchObject({ status: 'open', receipts: [] });
  });

  it('when an open return is cancelled, its quantity no longer counts against the order and it cannot be received', async () => {
    const { tenantId, key, orderNo } = await tenantWithShippedOrder();
    const api = integration(key);
    await api.post('/returns', { rmaNo: 'RMA-X', orderNo, lines: [{ sku: 'PLAIN', qty: 4 }] });

    const cancelled = await staff('POST', '/returns/RMA-X/cancel', tenantId);
    const receive = await staff('POST', '/returns/RMA-X/receive', tenantId, {
      lines: [{ sku: 'PLAIN', qty: 1, disposition: 'restock' }],
    });
    const cancelAgain = await staff('POST', '/returns/RMA-X/cancel', tenantId);
    const replacement = await api.post('/returns', { rmaNo: 'RMA-Y', orderNo, lines: [{ sku: 'PLAIN', qty: 4 }] });

    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ status: 'cancelled', cancelledAt: expect.any(String) });
    expect(receive.status).toBe(409);
    expect(receive.body.code).toBe('INVALID_STATE');
    expect(cancelAgain.status).toBe(409);
    expect(replacement.status).toBe(201);
    expect(await returnEvents(tenantId)).toEqual([]);
  });

  it('when staff close a partially received return, return.completed is sent and only what came back still counts', async () => {
    const { tenantId, key, orderNo } = await tenantWithShippedOrder();
    const api = integration(key);
    await api.post('/returns', { rmaNo: 'RMA-SHORT', orderNo, lines: [{ sku: 'PLAIN', qty: 4 }] });
    await staff('POST', '/returns/RMA-SHORT/receive', tenantId, {
      lines: [{ sku: 'PLAIN', qty: 1, disposition: 'restock' }],
    });

    const cancel = await staff('POST', '/returns/RMA-SHORT/cancel', tenantId);
    const closed = await staff('POST', '/returns/RMA-SHORT/close', tenantId);
    const more = await api.post('/returns', { rmaNo: 'RMA-MORE', orderNo, lines: [{ sku: 'PLAIN', qty: 3 }] });

    expect(cancel.status).toBe(409);
    expect(closed.status).toBe(200);
    expect(closed.body.status).toBe('closed');
    expect((await returnEvents(tenantId)).map((event) => [event.event, event.data.status])).toEqual([
      ['return.received', 'partially_received'],
      ['return.completed', 'closed'],
    ]);
    expect(more.status).toBe(201);
  });

  it("lists the tenant's returns for staff, by status, with their quantities", async () => {
    const { tenantId, key, orderNo } = await tenantWithShippedOrder();
    await integration(key).post('/returns', { rmaNo: 'RMA-L1', orderNo, lines: [{ sku: 'PLAIN', qty: 1 }] });
    await integration(key).post('/returns', { rmaNo: 'RMA-L2', orderNo, lines: [{ sku: 'PLAIN', qty: 2 }] });
    await staff('POST', '/returns/RMA-L2/cancel', tenantId);

    const all = await staff('GET', '/returns', tenantId);
    const open = await request(gateway.url, 'GET', `${API}/returns?tenantId=${tenantId}&status=open`, {
      token: admin,
    });
    const integrationList = await integration(key).get('/returns?status=cancelled');

    expect(all.status).toBe(200);
    expect(all.body).toEqual([
      expect.objectContaining({ rmaNo: 'RMA-L1', status: 'open', lineCount: 1, qty: 1, receivedQty: 0 }),
      expect.objectContaining({ rmaNo: 'RMA-L2', status: 'cancelled', qty: 2 }),
    ]);
    expect(open.body).toEqual([expect.objectContaining({ rmaNo: 'RMA-L1' })]);
    expect(integrationList.body.data).toEqual([expect.objectContaining({ rmaNo: 'RMA-L2' })]);
  });

  it('when returns come in bulk, each entry gets its own outcome: an over-return is an entry error of a 207', async () => {
    const { tenantId, key, orderNo } = await tenantWithShippedOrder();

    const response = await integration(key).post('/returns/bulk', {
      returns: [
        { rmaNo: 'RMA-B1', orderNo, lines: [{ sku: 'PLAIN', qty: 3 }] },
        { rmaNo: 'RMA-B2', orderNo, lines: [{ sku: 'PLAIN', qty: 2 }] },
        { rmaNo: 'RMA-B3', orderNo, lines: [{ sku: 'LOT', qty: 2, lotNo: 'L1' }] },
        { rmaNo: 'RMA-B1', orderNo, lines: [{ sku: 'PLAIN', qty: 1 }] },
      ],
    });

    expect(response.status).toBe(207);
    expect(response.body).toMatchObject({ total: 4, created: 2 });
    expect(response.body.data).toEqual([
      expect.objectContaining({ index: 0, key: 'RMA-B1', status: 'created' }),
      expect.objectContaining({ index: 1, key: 'RMA-B2', status: 'error' }),
      expect.objectContaining({ index: 2, key: 'RMA-B3', status: 'created' }),
      expect.objectContaining({ index: 3, key: 'RMA-B1', status: 'error' }),
    ]);
    expect(response.body.errors).toEqual([
      { index: 1, key: 'RMA-B2', error: expect.stringContaining('2 cannot be returned (at most 1)') },
      { index: 3, key: 'RMA-B1', error: 'Return with rmaNo RMA-B1 already exists' },
    ]);
    const stored = await ctx.runtime.db.sequelize.query<{ rmaNo: string }>(
      'SELECT rma_no AS "rmaNo" FROM returns WHERE tenant_id = $1 ORDER BY rma_no',
      { bind: [tenantId], type: QueryTypes.SELECT },
    );
    expect(stored.map((row) => row.rmaNo)).toEqual(['RMA-B1', 'RMA-B3']);
  });

  it('when a sandbox simulates return.received, the open lines are restocked at RECEIVING and both events follow', async () => {
    const { tenantId, key, orderNo } = await tenantWithShippedOrder({ sandbox: true });
    await integration(key).post('/returns', { rmaNo: 'RMA-SIM', orderNo, lines: [{ sku: 'PLAIN', qty: 2 }] });

    const simulated = await integration(key).post('/simulations', { type: 'return.received', rmaNo: 'RMA-SIM' });
    const nothingLeft = await integration(key).post('/simulations', { type: 'return.received', rmaNo: 'RMA-SIM' });

    expect(simulated.status).toBe(202);
    expect((simulated.body.data as JsonNode).events).toEqual([
      { id: expect.any(String), event: 'return.received' },
      { id: expect.any(String), event: 'return.completed' },
    ]);
    expect(await stockOf(tenantId, 'PLAIN')).toEqual([
      ['A-01', 'storage', '', 6],
      ['RECEIVING', 'receiving', '', 2],
    ]);
    expect(nothingLeft.status).toBe(409);
    expect(nothingLeft.body.code).toBe('NOTHING_TO_RECEIVE');
    expect(await ledgerMismatches(tenantId)).toEqual([]);
  });

  it('when a create or a receipt is sent again with its Idempotency-Key, the first answer is replayed and stock moves once', async () => {
    const { tenantId, key, orderNo } = await tenantWithShippedOrder();
    const body = { rmaNo: 'RMA-IDEM', orderNo, lines: [{ sku: 'PLAIN', qty: 2 }] };
    const create = () =>
      request(gateway.url, 'POST', `${BASE}/returns`, {
        body,
        headers: { 'x-api-key': key, 'idempotency-key': 'create-rma-idem' },
      });
    const receive = () =>
      request(gateway.url, 'POST', `${API}/returns/RMA-IDEM/receive?tenantId=${tenantId}`, {
        token: admin,
        body: { lines: [{ sku: 'PLAIN', qty: 1, disposition: 'restock' }] },
        headers: { 'idempotency-key': 'receive-rma-idem' },
      });

    const [firstCreate, secondCreate] = [await create(), await create()];
    const [firstReceipt, secondReceipt] = [await receive(), await receive()];

    expect(firstCreate.status).toBe(201);
    expect(secondCreate.status).toBe(201);
    expect(secondCreate.body.data).toEqual(firstCreate.body.data);
    expect(firstReceipt.status).toBe(200);
    expect(secondReceipt.body).toEqual(firstReceipt.body);
    expect(await stockOf(tenantId, 'PLAIN')).toEqual([
      ['A-01', 'storage', '', 6],
      ['RECEIVING', 'receiving', '', 1],
    ]);
    expect(await returnMovements(tenantId)).toEqual([['RECEIVING', 'PLAIN', '', 1, 1, 'RMA-IDEM']]);
  });
});
