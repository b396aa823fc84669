import { RECEIVING_LOCATION_CODE } from '@wms/warehouse';
import {
  createTenantWithWarehouse,
  createTestContext,
  createUser,
  loginAs,
  request,
  TEST_ADMIN,
  type TestContext,
  type TestGateway,
} from '@wms/testing';

describe('warehouses admin endpoints', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let adminToken: string;

  beforeAll(async () => {
    ctx = await createTestContext('warehouses-routes');
    gateway = await ctx.startGateway();
    adminToken = await loginAs(gateway.url, TEST_ADMIN.email, TEST_ADMIN.password);
  });
  afterAll(() => ctx.close());

  const create = (token: string, body: unknown) => request(gateway.url, 'POST', '/api/v1/warehouses', { token, body });

  it('POST creates the warehouse with its RECEIVING location and answers 201', async () => {
    const tenant = await ctx.services.tenants.create({ code: 'WHNEW', name: 'New' });

    const response = await create(adminToken, { tenantId: tenant.id, code: 'EAST', name: 'East' });
    const [locations] = (await ctx.runtime.db.sequelize.query('SELECT code FROM locations WHERE warehouse_id = :id', {
      replacements: { id: response.body.id },
    })) as [{ code: string }[], unknown];

    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ tenantId: tenant.id, code: 'EAST', name: 'East' });
    expect(locations).toEqual([{ code: RECEIVING_LOCATION_CODE }]);
  });

  it('POST with a code that exists in the tenant answers 409 and adds nothing; the same code in another tenant is fine', async () => {
    const { tenant } = await createTenantWithWarehouse(ctx, undefined, 'DUP');
    const { tenant: other } = await createTenantWithWarehouse(ctx, undefined, 'OTHER');

    const duplicate = await create(adminToken, { tenantId: tenant.id, code: 'DUP', name: 'Again' });
    const elsewhere = await create(adminToken, { tenantId: other.id, code: 'DUP', name: 'Elsewhere' });

    expect(duplicate.status).toBe(409);
    expect(duplicate.body).toEqual({
      statusCode: 409,
      message: 'Warehouse code DUP already exists',
      error: 'Conflict',
      code: 'WAREHOUSE_EXISTS',
      requestId: expect.any(String),
    });
    expect((await ctx.services.warehouses.list(tenant.id)).map((warehouse) => warehouse.name)).toEqual([
      'Warehouse DUP',
    ]);
    expect(elsewhere.status).toBe(201);
  });

  it('a cross-tenant user must name the tenant on POST: 400 tenantId is required.', async () => {
    const response = await create(adminToken, { code: 'NOWHERE', name: 'Nowhere' });

    expect(response.status).toBe(400);
    expect(response.body.message).toBe('tenantId is required.');
  });

  it('GET with a malformed tenantId answers 400, not a database error', async () => {
    const response = await request(gateway.url, 'GET', '/api/v1/warehouses?tenantId=not-a-uuid', { token: adminToken });

    expect(response.status).toBe(400);
    expect(response.body.details[0].path).toBe('tenantId');
  });

  describe('a tenant-bound user with the warehouses module', () => {
    let token: string;
    let ownTenantId: string;
    let otherTenantId: string;

    beforeAll(async () => {
      const [{ tenant }, { tenant: other }] = await Promise.all([
        createTenantWithWarehouse(ctx, 'BOUND'),
        createTenantWithWarehouse(ctx, 'FOREIGN'),
      ]);
      ownTenantId = tenant.id;
      otherTenantId = other.id;
      const { user, password } = await createUser(ctx, {
        role: 'supervisor',
        tenantId: tenant.id,
        adminModules: ['warehouses'],
        adminModulesWrite: ['warehouses'],
      });
      token = await loginAs(gateway.url, user.email, password);
    });

    it("lists only its own tenant's warehouses", async () => {
      const response = await request(gateway.url, 'GET', '/api/v1/warehouses', { token });

      expect(response.status).toBe(200);
      expect(response.body.map((warehouse) => [warehouse.tenantId, warehouse.code])).toEqual([[ownTenantId, 'WH1']]);
    });

    it("asking for another tenant's warehouses answers 403 TENANT_MISMATCH", async () => {
      const response = await request(gateway.url, 'GET', `/api/v1/warehouses?tenantId=${otherTenantId}`, { token });

      expect(response.status).toBe(403);
    });

    it('creates in its own tenant without naming it, and cannot create in another tenant', async () => {
      const mine = await create(token, { code: 'MINE', name: 'Mine' });
      const theirs = await create(token, { tenantId: otherTenantId, code: 'THEIRS', name: 'Theirs' });

      expect(mine.status).toBe(201);
      expect(mine.body.tenantId).toBe(ownTenantId);
      expect(theirs.status).toBe(403);
      expect(await ctx.services.warehouses.findByCode(otherTenantId, 'THEIRS')).toBeNull();
    });
  });
});
