import { QueryTypes } from 'sequelize';
import {
  createMasterData,
  createTenantWithWarehouse,
  createTestContext,
  createUser,
  loginAs,
  request,
  TEST_ADMIN,
  type TestContext,
  type TestGateway,
} from '@wms/testing';

const API = '/api/v1';

/** Idempotency-Key on the warehouse operations: the integration API's rules, with keys kept per user. */
describe('Idempotency-Key on the operations endpoints', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let admin: string;
  let tenantId: string;
  let keyNo = 0;

  beforeAll(async () => {
    ctx = await createTestContext('operations-idempotency');
    gateway = await ctx.startGateway();
    admin = await loginAs(gateway.url, TEST_ADMIN.email, TEST_ADMIN.password);
    ({
      tenant: { id: tenantId },
    } = await createTenantWithWarehouse(ctx, undefined, 'WH1'));
    await createMasterData(ctx, tenantId, {
      items: [{ sku: 'PLAIN' }],
      partners: [{ code: 'CUST', type: 'customer' }],
      locations: [{ warehouseCode: 'WH1', code: 'A-01' }],
    });
  });
  afterAll(() => ctx.close());

  const nextKey = () => `ops-key-${++keyNo}`;
  const post = (path: string, body: unknown, key?: string, token = admin) =>
    request(gateway.url, 'POST', `${API}${path}?tenantId=${tenantId}`, {
      token,
      body,
      headers: key ? { 'idempotency-key': key } : {},
    });
  const adjustment = (qtyDelta: number, reason = 'found on the shelf') => ({
    warehouseCode: 'WH1',
    locationCode: 'A-01',
    sku: 'PLAIN',
    qtyDelta,
    reason,
  });

  async function onHand(): Promise<number> {
    const rows = await ctx.runtime.db.sequelize.query<{ qty: number }>(
      `SELECT coalesce(sum(s.qty_on_hand), 0)::float8 AS qty FROM stock_rows s JOIN items i ON i.id = s.item_id
       WHERE s.tenant_id = $1 AND i.sku = 'PLAIN'`,
      { bind: [tenantId], type: QueryTypes.SELECT },
    );
    return rows[0]!.qty;
  }
  async function adjustmentCount(): Promise<number> {
    const rows = await ctx.runtime.db.sequelize.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM stock_adjustments WHERE tenant_id = $1',
      { bind: [tenantId], type: QueryTypes.SELECT },
    );
    return rows[0]!.n;
  }

  it('when a stock adjustment is retried with its key, it adjusts once and the retry replays the answer', async () => {
    const key = nextKey();
    const before = await onHand();
    const adjustmentsBefore = await adjustmentCount();

    const first = await post('/stock/adjustments', adjustment(5), key);
    const retry = await post('/stock/adjustments', adjustment(5), key);

    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replay')).toBeNull();
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replay')).toBe('true');
    expect(retry.body).toEqual(first.body);
    expect(await onHand()).toBe(before + 5);
    expect(await adjustmentCount()).toBe(adjustmentsBefore + 1);
  });

  it('when many retries of one adjustment arrive at once, exactly one adjusts and the others wait or replay', async () => {
    const key = nextKey();
    const before = await onHand();

    const responses = await Promise.all(
      Array.from({ length: 8 }, () => post('/stock/adjustments', adjustment(2), key)),
    );

    const statuses = responses.map((response) => response.status).sort();
    expect(statuses.filter((status) => status === 201).length).toBeGreaterThanOrEqual(1);
    for (const response of responses.filter((candidate) => candidate.status === 409)) {
      expect(response.body.error).toBe('Conflict');
      expect(response.body.message).toMatch(/still in progress/);
    }
    expect(statuses.every((status) => status === 201 || status === 409)).toBe(true);
    expect(await onHand()).toBe(before + 2);
  });

  it('when the same key comes with another body, it answers 409 IDEMPOTENCY_KEY_MISMATCH naming the body and changes nothing', async () => {
    const key = nextKey();
    await post('/stock/adjustments', adjustment(1), key);
    const before = await onHand();

    const response = await post('/stock/adjustments', adjustment(7), key);

    expect(response.status).toBe(409);
    expect(response.body).toMatchObject({
      statusCode: 409,
      message: 'This Idempotency-Key was used with a different request: its body differs',
      details: [{ path: 'body', message: expect.any(String) }],
    });
    expect(await onHand()).toBe(before);
  });

  it('when the same adjustment comes again with its JSON keys in another order, the first answer is replayed', async () => {
    const key = nextKey();
    const send = (rawBody: string) =>
      request(gateway.url, 'POST', `${API}/stock/adjustments?tenantId=${tenantId}`, {
        token: admin,
        rawBody,
        headers: { 'idempotency-key': key },
      });
    const first = await send('{"warehouseCode":"WH1","locationCode":"A-01","sku":"PLAIN","qtyDelta":2,"reason":"r"}');
    const before = await onHand();

    const second = await send('{"reason":"r","qtyDelta":2,"sku":"PLAIN","locationCode":"A-01","warehouseCode":"WH1"}');

    expect(first.status).toBe(201);
    expect(second.headers.get('idempotent-replay')).toBe('true');
    expect(second.body).toEqual(first.body);
    expect(await onHand()).toBe(before);
  });

  it('when another user sends the same key, it is that user’s own request (keys are per user)', async () => {
    const key = nextKey();
    const { user, password } = await createUser(ctx, {
      role: 'manager',
      tenantId,
      adminModules: ['inventory'],
      adminModulesWrite: ['inventory'],
    });
    const other = await loginAs(gateway.url, user.email, password);
    const before = await onHand();

    const mine = await post('/stock/adjustments', adjustment(3), key);
    const theirs = await post('/stock/adjustments', adjustment(3), key, other);

    expect([mine.status, theirs.status]).toEqual([201, 201]);
    expect(theirs.headers.get('idempotent-replay')).toBeNull();
    expect(theirs.body.id).not.toBe(mine.body.id);
    expect(await onHand()).toBe(before + 6);
  });

  it('when a refused adjustment is retried, the stored 4xx is replayed', async () => {
    const key = nextKey();
    const first = await post('/stock/adjustments', { ...adjustment(1), sku: 'NOPE' }, key);
    const retry = await post('/stock/adjustments', { ...adjustment(1), sku: 'NOPE' }, key);

    expect(first.status).toBe(400);
    expect(retry.status).toBe(400);
    expect(retry.headers.get('idempotent-replay')).toBe('true');
    expect(retry.body).toEqual(first.body);
  });

  it('when a cycle count is retried, it is recorded once', async () => {
    const key = nextKey();
    const body = { warehouseCode: 'WH1', locationCode: 'A-01', sku: 'PLAIN', countedQty: 40 };

    const first = await post('/cycle-counts', body, key);
    const retry = await post('/cycle-counts', body, key);

    expect(first.status).toBe(201);
    expect(retry.headers.get('idempotent-replay')).toBe('true');
    expect(retry.body).toEqual(first.body);
    const rows = await ctx.runtime.db.sequelize.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM cycle_counts WHERE tenant_id = $1',
      { bind: [tenantId], type: QueryTypes.SELECT },
    );
    expect(rows[0]!.n).toBe(1);
  });

  it('when an order is allocated, released, picked and shipped with keys, every retry replays its answer', async () => {
    await post('/stock/adjustments', adjustment(100), nextKey());
    const [outcome] = await ctx.runtime.db.sequelize.transaction((transaction) =>
      ctx.services.orders.createOrders({ tenantId, transaction }, [
        {
          warehouseCode: 'WH1',
          customerCode: 'CUST',
          priority: 0,
          referenceNo: 'IDEM-1',
          lines: [{ lineNo: 1, sku: 'PLAIN', uomCode: 'EA', qtyOrdered: 4 }],
        },
      ]),
    );
    const orderNo = outcome!.ok ? (outcome!.data.orderNo as string) : '';

    const twice = async (path: string, body?: unknown) => {
      const key = nextKey();
      const first = await post(path, body, key);
      const retry = await post(path, body, key);
      expect(retry.headers.get('idempotent-replay')).toBe('true');
      expect({ status: retry.status, body: retry.body }).toEqual({ status: first.status, body: first.body });
      return first;
    };

    expect((await twice(`/orders/${orderNo}/allocate`)).body.status).toBe('allocated');
    const released = await twice(`/orders/${orderNo}/release`);
    expect(released.body.status).toBe('released');
    const taskId = String(released.body.pickTasks[0]!.id);
    expect((await twice(`/pick-tasks/${taskId}/confirm`, { qtyPicked: 4 })).body.orderStatus).toBe('picked');
    const shipped = await twice(`/orders/${orderNo}/ship`, { carrier: 'DHL' });
    expect(shipped.status).toBe(201);
    const shipments = await ctx.runtime.db.sequelize.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM shipments WHERE tenant_id = $1',
      { bind: [tenantId], type: QueryTypes.SELECT },
    );
    expect(shipments[0]!.n).toBe(1);
  });

  it('when the key is not visible ASCII, it answers 400 and nothing is written', async () => {
    const before = await adjustmentCount();

    const response = await post('/stock/adjustments', adjustment(1), 'x'.repeat(256));

    expect(response.status).toBe(400);
    expect(await adjustmentCount()).toBe(before);
  });
});
