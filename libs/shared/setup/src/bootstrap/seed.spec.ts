import { runSeed } from './seed.js';
import { DEFAULT_TENANT_CODE } from '@wms/identity';
import { DEFAULT_WAREHOUSE_CODE, RECEIVING_LOCATION_CODE } from '@wms/warehouse';
import { createTestContext, loginAs, TEST_ADMIN, type TestContext } from '@wms/testing';

describe('seed routine', () => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await createTestContext('seed');
  });
  afterAll(() => ctx.close());

  async function count(sql: string): Promise<number> {
    const [rows] = (await ctx.runtime.db.sequelize.query(sql, {
      replacements: {
        tenant: DEFAULT_TENANT_CODE,
        warehouse: DEFAULT_WAREHOUSE_CODE,
        location: RECEIVING_LOCATION_CODE,
        email: TEST_ADMIN.email,
      },
    })) as [{ n: number }[], unknown];
    return Number(rows[0]!.n);
  }

  it('run again (twice, even at once) leaves one admin, one DEFAULT tenant, one MAIN warehouse with one RECEIVING location', async () => {
    await runSeed(ctx.runtime.db, ctx.config);
    await Promise.all([runSeed(ctx.runtime.db, ctx.config), runSeed(ctx.runtime.db, ctx.config)]);

    expect(await count(`SELECT count(*) AS n FROM users WHERE role = 'admin'`)).toBe(1);
    expect(await count(`SELECT count(*) AS n FROM users WHERE email = :email AND tenant_id IS NULL`)).toBe(1);
    expect(await count(`SELECT count(*) AS n FROM tenants WHERE code = :tenant`)).toBe(1);
    expect(
      await count(
        `SELECT count(*) AS n FROM warehouses w JOIN tenants t ON t.id = w.tenant_id WHERE t.code = :tenant AND w.code = :warehouse`,
      ),
    ).toBe(1);
    expect(
      await count(`SELECT count(*) AS n FROM locations l JOIN warehouses w ON w.id = l.warehouse_id
                    WHERE w.code = :warehouse AND l.code = :location`),
    ).toBe(1);
  });

  it('run again, it keeps a password the admin has changed', async () => {
    const gateway = await ctx.startGateway();
    const token = await loginAs(gateway.url, TEST_ADMIN.email, TEST_ADMIN.password);
    await fetch(`${gateway.url}/api/v1/auth/change-password`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ currentPassword: TEST_ADMIN.password, newPassword: 'changed-admin-password' }),
    });

    await runSeed(ctx.runtime.db, ctx.config);

    expect(await loginAs(gateway.url, TEST_ADMIN.email, 'changed-admin-password')).toEqual(expect.any(String));
  });
});
