import {
  TEST_ADMIN,
  createTenantWithWarehouse,
  createTestContext,
  createUser,
  loginAs,
  request,
  type TestContext,
  type TestGateway,
} from '@wms/testing';

interface Entry {
  id: string;
  action: string;
  entityType: string;
  entityId: string;
  actorUserId: string | null;
  actorEmail: string | null;
  tenantId: string | null;
  createdAt: string;
}

describe('audit log API', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let adminToken: string;
  let adminId: string;

  beforeAll(async () => {
    ctx = await createTestContext('audit-logs-routes');
    gateway = await ctx.startGateway();
    adminToken = await loginAs(gateway.url, TEST_ADMIN.email, TEST_ADMIN.password);
    adminId = (await ctx.services.auth.login(TEST_ADMIN.email, TEST_ADMIN.password)).user.id;
  });
  afterAll(() => ctx.close());

  const list = (query: string, token = adminToken) =>
    request<Entry[]>(gateway.url, 'GET', `/api/v1/audit-logs?${query}`, { token });

  /** Writes entries straight into the table, at the times given, for filters the services cannot arrange. */
  async function insertEntries(rows: Array<{ entityType: string; createdAt: string; tenantId?: string | null }>) {
    for (const row of rows) {
      await ctx.runtime.db.sequelize.query(
        `INSERT INTO audit_logs (tenant_id, action, entity_type, entity_id, actor_user_id, created_at)
         VALUES (:tenantId, :action, :entityType, :entityId, :actorUserId, :createdAt)`,
        {
          replacements: {
            tenantId: row.tenantId ?? null,
            action: `${row.entityType}.probed`,
            entityType: row.entityType,
            entityId: row.createdAt,
            actorUserId: adminId,
            createdAt: row.createdAt,
          },
        },
      );
    }
  }

  it('filters by entity type, entity, action and actor (by id or part of the e-mail), newest first', async () => {
    const manager = await createUser(ctx, {
      email: 'shift.manager@warehouse.local',
      role: 'manager',
      adminModules: ['users'],
      adminModulesWrite: ['users'],
    });
    const managerToken = await loginAs(gateway.url, manager.user.email, manager.password);
    const byAdmin = await request(gateway.url, 'POST', '/api/v1/users', {
      token: adminToken,
      body: { email: 'picker.one@warehouse.local', password: 'picker-password', role: 'operator' },
    });
    const byManager = await request(gateway.url, 'POST', '/api/v1/users', {
      token: managerToken,
      body: { email: 'picker.two@warehouse.local', password: 'picker-password', role: 'operator' },
    });
    await request(gateway.url, 'POST', `/api/v1/users/${byAdmin.body.id}/disable`, { token: adminToken });

    const managerById = await list(`entityType=user&actorUserId=${manager.user.id}`);
    const managerByEmail = await list('entityType=user&actorEmail=SHIFT.MANAGER');
    const oneUser = await list(`entityType=user&entityId=${byAdmin.body.id}`);
    const disabled = await list(`action=user.disabled&entityId=${byAdmin.body.id}`);
    const wildcard = await list('actorEmail=%25');

    expect(managerById.status).toBe(200);
    expect(managerById.body.map((entry) => [entry.action, entry.entityId])).toEqual([
      ['user.created', byManager.body.id],
    ]);
    expect(managerById.body[0]).toMatchObject({ actorEmail: manager.user.email, tenantId: null });
    expect(managerByEmail.body).toEqual(managerById.body);
    expect(oneUser.body.map((entry) => entry.action)).toEqual(['user.disabled', 'user.created']);
    expect(oneUser.body.every((entry) => entry.actorEmail === TEST_ADMIN.email)).toBe(true);
    expect(disabled.body).toHaveLength(1);
    expect(wildcard.body).toEqual([]);
  });

  it('filters by time: from is inclusive, to is exclusive', async () => {
    await insertEntries([
      { entityType: 'probe', createdAt: '2026-01-01T10:00:00.000Z' },
      { entityType: 'probe', createdAt: '2026-01-01T11:00:00.000Z' },
      { entityType: 'probe', createdAt: '2026-01-01T12:00:00.000Z' },
    ]);
    const times = async (query: string) =>
      (await list(`entityType=probe&${query}`)).body.map((entry) => new Date(entry.createdAt).getUTCHours());

    expect(await times('from=2026-01-01T11:00:00Z')).toEqual([12, 11]);
    expect(await times('to=2026-01-01T11:00:00Z')).toEqual([10]);
    expect(await times('from=2026-01-01T10:00:00Z&to=2026-01-01T12:00:00Z')).toEqual([11, 10]);
  });

  it('pages through entries written at the same instant with no gap and no repeat, naming the next page in headers', async () => {
    const instant = '2026-02-02T08:00:00.123456Z';
    await insertEntries(Array.from({ length: 5 }, () => ({ entityType: 'paging', createdAt: instant })));

    const seen: string[] = [];
    const links: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await list(`entityType=paging&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.status).toBe(200);
      seen.push(...page.body.map((entry) => entry.id));
      cursor = page.headers.get('x-next-cursor');
      if (cursor) links.push(page.headers.get('link') ?? '');
      pages += 1;
    } while (cursor && pages < 10);

    expect(pages).toBe(3);
    expect(new Set(seen).size).toBe(5);
    expect(links).toHaveLength(2);
    for (const link of links) {
      expect(link).toMatch(/^<\/api\/v1\/audit-logs\?entityType=paging&limit=2&cursor=[A-Za-z0-9_-]+>; rel="next"$/);
    }
  });

  it("a tenant-bound reader sees only its tenant's entries and cannot name another tenant", async () => {
    const { tenant } = await createTenantWithWarehouse(ctx);
    const { tenant: other } = await createTenantWithWarehouse(ctx);
    await insertEntries([
      { entityType: 'scoped', createdAt: '2026-03-01T00:00:00Z', tenantId: tenant.id },
      { entityType: 'scoped', createdAt: '2026-03-02T00:00:00Z', tenantId: other.id },
      { entityType: 'scoped', createdAt: '2026-03-03T00:00:00Z', tenantId: null },
    ]);
    const auditor = await createUser(ctx, { role: 'viewer', tenantId: tenant.id, adminModules: ['audit'] });
    const auditorToken = await loginAs(gateway.url, auditor.user.email, auditor.password);

    const own = await list('entityType=scoped', auditorToken);
    const another = await list(`entityType=scoped&tenantId=${other.id}`, auditorToken);
    const crossTenant = await list('entityType=scoped');

    expect(own.body.map((entry) => entry.tenantId)).toEqual([tenant.id]);
    expect(another.status).toBe(403);
    expect(crossTenant.body).toHaveLength(3);
  });

  it('a user without the audit module gets 403', async () => {
    const viewer = await createUser(ctx, { role: 'viewer', adminModules: ['users'] });
    const token = await loginAs(gateway.url, viewer.user.email, viewer.password);

    expect((await list('entityType=user', token)).status).toBe(403);
  });

  it.each([
    ['a date that is not one', 'from=yesterday', 'from'],
    ['a range that ends before it starts', 'from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z', 'to'],
    ['an actor id that is not a UUID', 'actorUserId=admin', 'actorUserId'],
    ['a cursor this API did not issue', 'cursor=bm90LWEtY3Vyc29y', 'cursor'],
    ['an unknown filter', 'user=admin', 'user'],
    ['a limit over 500', 'limit=501', 'limit'],
  ])('answers 400 naming the field for %s', async (_case, query, field) => {
    const response = await list(query);

    expect(response.status).toBe(400);
    expect((response.body as unknown as { details: Array<{ path: string }> }).details.map((d) => d.path)).toEqual([
      field,
    ]);
  });
});
