import {
  TEST_ADMIN,
  appendEvents,
  createTenantWithWarehouse,
  createTestContext,
  loginAs,
  request,
  type JsonNode,
  type TestContext,
  type TestGateway,
} from '@wms/testing';

interface ErrorBody {
  statusCode: number;
  code: string;
  details?: Array<{ path: string; message: string }>;
}

describe('webhook subscription filters API', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let adminToken: string;

  beforeAll(async () => {
    ctx = await createTestContext('webhooks-filters');
    gateway = await ctx.startGateway();
    adminToken = await loginAs(gateway.url, TEST_ADMIN.email, TEST_ADMIN.password);
  });
  afterAll(() => ctx.close());

  const create = <T = JsonNode>(body: unknown) =>
    request<T>(gateway.url, 'POST', '/api/v1/webhooks', { token: adminToken, body });

  it('when a subscription is created with a filter, the filter is stored and answered back', async () => {
    const filter = {
      warehouseCode: { $in: ['MAIN', 'EAST'] },
      $or: [{ qtyDelta: { $gte: 10 } }, { qtyDelta: { $lte: -10 } }],
    };

    const created = await create<{ id: string; filter: unknown }>({
      url: 'https://93.184.215.14/hooks',
      events: ['stock.adjusted'],
      filter,
    });
    const read = await request<{ filter: unknown }>(gateway.url, 'GET', `/api/v1/webhooks/${created.body.id}`, {
      token: adminToken,
    });

    expect(created.status).toBe(201);
    expect(created.body.filter).toEqual(filter);
    expect(read.body.filter).toEqual(filter);
  });

  it.each([
    [{ sku: { $regex: '^A' } }, 'filter.sku.$regex', 'operator $regex is not allowed'],
    [{ $where: 'sleep(1000)' }, 'filter.$where', 'operator $where is not allowed'],
    [{ lines: { $elemMatch: { sku: 'A' } } }, 'filter.lines.$elemMatch', 'operator $elemMatch is not allowed'],
    [{ sku: { $in: 'A' } }, 'filter.sku.$in', 'must be a list'],
    [{ sku: { $exists: 'yes' } }, 'filter.sku.$exists', 'must be true or false'],
    [{ $or: [] }, 'filter.$or', 'must be a list of 1 to'],
    [{ qty: { $gt: { $gt: 1 } } }, 'filter.qty.$gt', 'must be a string, number, boolean or null'],
    [{ address: { city: 'Oslo' } }, 'filter.address.city', 'dotted path'],
    [{ $and: [{ $and: [{ $and: [{ a: 1 }] }] }] }, 'filter.$and.0.$and.0.$and.0', 'nested deeper than 6 levels'],
    [{ sku: { $in: Array.from({ length: 101 }, (_v, i) => `SKU-${i}`) } }, 'filter.sku.$in', 'at most 100'],
    ['warehouseCode = MAIN', 'filter', 'must be an object'],
  ])('when a filter is %s, creation answers 400 naming %s', async (filter, path, message) => {
    const response = await create<ErrorBody>({ url: 'https://93.184.215.14/hooks', events: ['*'], filter });

    expect(response.status).toBe(400);
    expect(response.body.statusCode).toBe(400);
    expect(response.body.code).toBe('VALIDATION_FAILED');
    const detail = response.body.details?.find((entry) => entry.path === 'filter');
    expect(detail?.message).toContain(`${path}: `);
    expect(detail?.message).toContain(message);
  });

  it('when a filter is changed or removed with PATCH, the subscription keeps the new one; a bad one is 400', async () => {
    const created = await create<{ id: string }>({ url: 'https://93.184.215.14/hooks', events: ['*'] });
    const path = `/api/v1/webhooks/${created.body.id}`;

    const set = await request<{ filter: unknown }>(gateway.url, 'PATCH', path, {
      token: adminToken,
      body: { filter: { warehouseCode: 'MAIN' } },
    });
    const bad = await request<ErrorBody>(gateway.url, 'PATCH', path, {
      token: adminToken,
      body: { filter: { warehouseCode: { $type: 'string' } } },
    });
    const cleared = await request<{ filter: unknown }>(gateway.url, 'PATCH', path, {
      token: adminToken,
      body: { filter: null },
    });

    expect(set.body.filter).toEqual({ warehouseCode: 'MAIN' });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('$type');
    expect(cleared.body.filter).toBeNull();
  });

  it('when a filter is tried on the tenant’s latest events, it answers how many of them it would have matched', async () => {
    const { tenant } = await createTenantWithWarehouse(ctx);
    const { tenant: other } = await createTenantWithWarehouse(ctx);
    const adjusted = (tenantId: string, warehouseCode: string, qtyDelta: number) => ({
      tenantId,
      event: 'stock.adjusted' as const,
      data: {
        warehouseCode,
        locationCode: 'A-01',
        sku: 'SKU-1',
        lotNo: null,
        qtyDelta,
        qtyOnHand: 100,
        reason: 'count',
      },
    });
    await appendEvents(ctx, [
      ...Array.from({ length: 30 }, (_v, i) => adjusted(tenant.id, i % 3 === 0 ? 'MAIN' : 'EAST', i)),
      ...Array.from({ length: 10 }, () => adjusted(other.id, 'MAIN', 1)),
    ]);
    // The feed positions (which order a tenant's latest events) are given by the relay.
    await ctx.runtime.db.sequelize.query(
      `UPDATE events e SET relayed_at = now(), feed_position = o.position
         FROM (SELECT id, nextval('events_feed_position_seq') AS position
                 FROM (SELECT id FROM events WHERE relayed_at IS NULL ORDER BY seq) pending) o
        WHERE e.id = o.id`,
    );

    const response = await request<{ tested: number; matched: number; events: Array<{ matched: boolean }> }>(
      gateway.url,
      'POST',
      '/api/v1/webhooks/filter-test',
      { token: adminToken, body: { tenantId: tenant.id, filter: { warehouseCode: 'MAIN' }, limit: 20 } },
    );
    const bad = await request<ErrorBody>(gateway.url, 'POST', '/api/v1/webhooks/filter-test', {
      token: adminToken,
      body: { tenantId: tenant.id, filter: { warehouseCode: { $regex: 'M' } } },
    });

    expect(response.status).toBe(200);
    // The latest 20 of the tenant's 30 are i = 10..29, of which i % 3 === 0 are 12, 15, 18, 21, 24, 27.
    expect(response.body).toMatchObject({ tested: 20, matched: 6 });
    expect(response.body.events.filter((event) => event.matched)).toHaveLength(6);
    expect(bad.status).toBe(400);
  });
});
