import { randomUUID } from 'node:crypto';
import { createSandboxTenant, createTenantWithWarehouse, createTestContext, type TestContext } from '@wms/testing';
import { TenantsService } from './tenants.service.js';

describe('TenantsService.isSandbox: a tenant’s flag, read once per process', () => {
  let ctx: TestContext;
  let tenantReads = 0;

  beforeAll(async () => {
    ctx = await createTestContext('tenants-service');
    ctx.runtime.db.sequelize.addHook('afterQuery', 'count-tenant-reads', (_options, query) => {
      if (/FROM "tenants"/.test((query as { sql?: string }).sql ?? '')) tenantReads += 1;
    });
  });
  afterAll(async () => {
    ctx.runtime.db.sequelize.removeHook('afterQuery', 'count-tenant-reads');
    await ctx.close();
  });
  beforeEach(() => {
    tenantReads = 0;
  });

  it('when many callers ask about one tenant at once, PostgreSQL is read once and each gets the flag', async () => {
    const { tenant: sandbox } = await createSandboxTenant(ctx);
    const tenants = new TenantsService(ctx.runtime.db);
    tenantReads = 0;

    const answers = await Promise.all(Array.from({ length: 50 }, () => tenants.isSandbox(sandbox.id)));
    const later = await tenants.isSandbox(sandbox.id);

    expect(answers).toEqual(Array.from({ length: 50 }, () => true));
    expect(later).toBe(true);
    expect(tenantReads).toBe(1);
  });

  it('when the tenant is not a sandbox, the callers that asked together all get false from one read', async () => {
    const { tenant } = await createTenantWithWarehouse(ctx);
    const tenants = new TenantsService(ctx.runtime.db);
    tenantReads = 0;

    const answers = await Promise.all(Array.from({ length: 20 }, () => tenants.isSandbox(tenant.id)));

    expect(answers).toEqual(Array.from({ length: 20 }, () => false));
    expect(tenantReads).toBe(1);
  });

  it('when the tenant does not exist, the answer is false and is not kept (it is read again next time)', async () => {
    const tenants = new TenantsService(ctx.runtime.db);
    const missing = randomUUID();

    const first = await Promise.all([tenants.isSandbox(missing), tenants.isSandbox(missing)]);
    const second = await tenants.isSandbox(missing);

    expect(first).toEqual([false, false]);
    expect(second).toBe(false);
    expect(tenantReads).toBe(2);
  });
});
