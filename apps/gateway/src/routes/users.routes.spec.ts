import { ACCOUNT_NOT_ACTIVE } from '@wms/identity';
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

describe('users admin endpoints', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let adminToken: string;

  const call = (method: string, path: string, token: string, body?: unknown) =>
    request(gateway.url, method, path, { token, body });

  beforeAll(async () => {
    ctx = await createTestContext('users-routes');
    gateway = await ctx.startGateway();
    adminToken = await loginAs(gateway.url, TEST_ADMIN.email, TEST_ADMIN.password);
  });
  afterAll(() => ctx.close());

  describe('as the cross-tenant admin', () => {
    it('POST /users creates a user with a trimmed, lower-cased e-mail and answers 201 without the hash', async () => {
      const { tenant } = await createTenantWithWarehouse(ctx);

      const response = await call('POST', '/api/v1/users', adminToken, {
        email: '  Picker.One@Warehouse.Local ',
        password: 'picker-password',
        firstName: 'Pat',
        lastName: 'Picker',
        role: 'operator',
        tenantId: tenant.id,
        adminModules: ['orders'],
        adminModulesWrite: ['orders'],
      });

      expect(response.status).toBe(201);
      expect(response.body).toEqual({
        id: expect.any(String),
        email: 'picker.one@warehouse.local',
        firstName: 'Pat',
        lastName: 'Picker',
        role: 'operator',
        language: 'en',
        tenantId: tenant.id,
        adminModules: ['orders'],
        adminModulesWrite: ['orders'],
        status: 'active',
        failedLoginCount: 0,
        lastLoginAt: null,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        canManage: true,
        canSetCredentials: true,
      });
      expect((await loginAs(gateway.url, 'picker.one@warehouse.local', 'picker-password')).length).toBeGreaterThan(0);
    });

    it('POST /users with an existing e-mail in another case answers 409', async () => {
      const { user } = await createUser(ctx);

      const response = await call('POST', '/api/v1/users', adminToken, {
        email: user.email.toUpperCase(),
        password: 'password-123',
        role: 'viewer',
      });

      expect(response.status).toBe(409);
      expect(response.body.error).toBe('Conflict');
    });

    it('POST /users with a bad e-mail, an unknown role and an unknown module lists each in a 400', async () => {
      const response = await call('POST', '/api/v1/users', adminToken, {
        email: 'no-at-sign',
        password: 'password-123',
        role: 'superuser',
        adminModules: ['everything'],
      });

      expect(response.status).toBe(400);
      expect(response.body.details.map((detail) => detail.path).sort()).toEqual(['adminModules.0', 'email', 'role']);
    });

    it('POST /users naming a tenant that does not exist answers 400 REFERENCE_NOT_FOUND', async () => {
      const response = await call('POST', '/api/v1/users', adminToken, {
        email: 'lost@example.test',
        password: 'password-123',
        role: 'viewer',
        tenantId: '00000000-0000-4000-8000-000000000000',
      });

      expect(response.status).toBe(400);
      expect(response.body.message).toMatch(/Tenant .* not found/);
    });

    it('GET /users/:id answers the user; an unknown or malformed id answers 404', async () => {
      const { user } = await createUser(ctx);

      const found = await call('GET', `/api/v1/users/${user.id}`, adminToken);
      const unknown = await call('GET', '/api/v1/users/00000000-0000-4000-8000-000000000000', adminToken);
      const malformed = await call('GET', '/api/v1/users/not-a-uuid', adminToken);

      expect(found.status).toBe(200);
      expect(found.body).toMatchObject({ ...user, status: 'active' });
      expect(unknown.status).toBe(404);
      expect(malformed.status).toBe(404);
    });

    it('PATCH /users/:id changes the given fields only, and a new password works at once', async () => {
      const { user } = await createUser(ctx, { role: 'viewer' });

      const response = await call('PATCH', `/api/v1/users/${user.id}`, adminToken, {
        role: 'supervisor',
        language: 'pt-BR',
        password: 'reset-password',
      });

      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        id: user.id,
        email: user.email,
        role: 'supervisor',
        language: 'pt-BR',
        firstName: user.firstName,
      });
      expect(await loginAs(gateway.url, user.email, 'reset-password')).toEqual(expect.any(String));
    });

    it('PATCH /users/:id with an empty body or a status field answers 400', async () => {
      const { user } = await createUser(ctx);

      const empty = await call('PATCH', `/api/v1/users/${user.id}`, adminToken, {});
      const status = await call('PATCH', `/api/v1/users/${user.id}`, adminToken, { status: 'active' });

      expect(empty.status).toBe(400);
      expect(status.status).toBe(400);
    });

    it('disable makes login answer 401 inactive or locked; enable lets the user in again', async () => {
      const { user, password } = await createUser(ctx);

      const disabled = await call('POST', `/api/v1/users/${user.id}/disable`, adminToken);
      const refused = await request(gateway.url, 'POST', '/api/v1/auth/login', {
        body: { email: user.email, password },
      });
      const enabled = await call('POST', `/api/v1/users/${user.id}/enable`, adminToken);
      const accepted = await request(gateway.url, 'POST', '/api/v1/auth/login', {
        body: { email: user.email, password },
      });

      expect(disabled.body.status).toBe('inactive');
      expect(refused.status).toBe(401);
      expect(refused.body.message).toBe(ACCOUNT_NOT_ACTIVE);
      expect(enabled.body.status).toBe('active');
      expect(accepted.status).toBe(200);
    });

    it('unlock of a disabled (not locked) user answers 409 and leaves it disabled', async () => {
      const { user } = await createUser(ctx, { status: 'inactive' });

      const response = await call('POST', `/api/v1/users/${user.id}/unlock`, adminToken);

      expect(response.status).toBe(409);
      expect(response.body.message).toMatch(/enable it instead/);
      expect((await call('GET', `/api/v1/users/${user.id}`, adminToken)).body.status).toBe('inactive');
    });

    it('each change of a user is audited with its actor and what changed; a password only as changed; a no-op not at all', async () => {
      const adminId = (await call('GET', '/api/v1/auth/me', adminToken)).body.id;
      const created = await call('POST', '/api/v1/users', adminToken, {
        email: 'audited@warehouse.local',
        password: 'first-password',
        role: 'viewer',
      });
      const id = created.body.id;

      await call('PATCH', `/api/v1/users/${id}`, adminToken, { role: 'operator', password: 'second-password' });
      await call('PATCH', `/api/v1/users/${id}`, adminToken, { role: 'operator' });
      await call('POST', `/api/v1/users/${id}/disable`, adminToken);
      await call('POST', `/api/v1/users/${id}/disable`, adminToken);
      await call('POST', `/api/v1/users/${id}/enable`, adminToken);
      const audit = await call('GET', `/api/v1/audit-logs?entityType=user&entityId=${id}`, adminToken);

      expect(audit.status).toBe(200);
      const byAction = Object.fromEntries(
        audit.body.map((entry) => [entry.action, [entry.actorUserId, entry.changes]]),
      );
      expect(audit.body).toHaveLength(4);
      expect(byAction).toEqual({
        'user.created': [
          adminId,
          {
            email: 'audited@warehouse.local',
            firstName: '',
            lastName: '',
            role: 'viewer',
            language: 'en',
            tenantId: null,
            adminModules: [],
            adminModulesWrite: [],
            status: 'active',
          },
        ],
        'user.updated': [adminId, { role: { from: 'viewer', to: 'operator' }, password: 'changed' }],
        'user.disabled': [adminId, { status: { from: 'active', to: 'inactive' } }],
        'user.enabled': [adminId, { status: { from: 'inactive', to: 'active' } }],
      });
      expect(JSON.stringify(audit.body)).not.toMatch(/password\b.*\$2[aby]\$|first-password|second-password/);
    });

    it('the admin cannot disable itself', async () => {
      const { id } = (await call('GET', '/api/v1/auth/me', adminToken)).body;

      const response = await call('POST', `/api/v1/users/${id}/disable`, adminToken);

      expect(response.status).toBe(403);
      expect((await call('GET', `/api/v1/users/${id}`, adminToken)).body.status).toBe('active');
    });

    it('GET /users filters by tenantId and status', async () => {
      const { tenant } = await createTenantWithWarehouse(ctx);
      const { user: active } = await createUser(ctx, { tenantId: tenant.id });
      const { user: locked } = await createUser(ctx, { tenantId: tenant.id, status: 'locked' });

      const all = await call('GET', `/api/v1/users?tenantId=${tenant.id}`, adminToken);
      const onlyLocked = await call('GET', `/api/v1/users?tenantId=${tenant.id}&status=locked`, adminToken);

      expect(all.body.map((user) => user.id).sort()).toEqual([active.id, locked.id].sort());
      expect(onlyLocked.body.map((user) => user.id)).toEqual([locked.id]);
    });

    it('GET /users?q= finds users by part of the e-mail or name, in any case, with % and _ taken literally', async () => {
      const { user: dock } = await createUser(ctx, { email: 'dock_lead@yard.local' });
      const { user: other } = await createUser(ctx, { email: 'docklead@yard.local' });

      const found = await call('GET', '/api/v1/users?q=DOCK_', adminToken);
      const byName = await call('GET', '/api/v1/users?q=yard.LOCAL', adminToken);
      const empty = await call('GET', '/api/v1/users?q=', adminToken);

      expect(found.body.map((user) => user.id)).toEqual([dock.id]);
      expect(byName.body.map((user) => user.id).sort()).toEqual([dock.id, other.id].sort());
      expect(empty.status).toBe(400);
    });
  });

  describe('as a tenant-bound manager with the users module', () => {
    let own: { tenantId: string; token: string; colleagueId: string };
    let otherUserId: string;
    let otherTenantId: string;

    beforeAll(async () => {
      const [{ tenant }, { tenant: other }] = await Promise.all([
        createTenantWithWarehouse(ctx),
        createTenantWithWarehouse(ctx),
      ]);
      const { user: manager, password } = await createUser(ctx, {
        role: 'manager',
        tenantId: tenant.id,
        adminModules: ['users'],
        adminModulesWrite: ['users'],
      });
      const { user: colleague } = await createUser(ctx, { tenantId: tenant.id });
      const { user: stranger } = await createUser(ctx, { tenantId: other.id });
      own = {
        tenantId: tenant.id,
        token: await loginAs(gateway.url, manager.email, password),
        colleagueId: colleague.id,
      };
      otherUserId = stranger.id;
      otherTenantId = other.id;
    });

    it('GET /users lists only its own tenant', async () => {
      const response = await call('GET', '/api/v1/users', own.token);

      expect(response.status).toBe(200);
      expect(response.body.length).toBe(2);
      expect(response.body.every((user) => String(user.tenantId) === own.tenantId)).toBe(true);
    });

    it('GET /users?tenantId=<another tenant> answers 403 TENANT_MISMATCH', async () => {
      const response = await call('GET', `/api/v1/users?tenantId=${otherTenantId}`, own.token);

      expect(response.status).toBe(403);
    });

    it.each([
      ['GET', ''],
      ['PATCH', ''],
      ['POST', '/disable'],
      ['POST', '/enable'],
      ['POST', '/unlock'],
    ])("%s /users/:id%s of another tenant's user answers 404 and changes nothing", async (method, suffix) => {
      const response = await call(
        method,
        `/api/v1/users/${otherUserId}${suffix}`,
        own.token,
        method === 'PATCH' ? { firstName: 'Changed' } : undefined,
      );

      expect(response.status).toBe(404);
      const stored = await ctx.services.users.repository.findById(otherUserId);
      expect(stored).toMatchObject({ firstName: 'Test', status: 'active' });
    });

    it('the seeded cross-tenant admin is invisible to it', async () => {
      const admin = await ctx.services.users.repository.findByEmail(TEST_ADMIN.email);

      const response = await call('GET', `/api/v1/users/${admin!.id}`, own.token);

      expect(response.status).toBe(404);
    });

    it('POST /users without tenantId creates the user in its own tenant; naming another tenant answers 403', async () => {
      const mine = await call('POST', '/api/v1/users', own.token, {
        email: 'mine@example.test',
        password: 'password-123',
        role: 'viewer',
      });
      const theirs = await call('POST', '/api/v1/users', own.token, {
        email: 'theirs@example.test',
        password: 'password-123',
        role: 'viewer',
        tenantId: otherTenantId,
      });

      expect(mine.status).toBe(201);
      expect(mine.body.tenantId).toBe(own.tenantId);
      expect(theirs.status).toBe(403);
      expect(await ctx.services.users.repository.findByEmail('theirs@example.test')).toBeNull();
    });

    it("PATCH cannot move its tenant's user to another tenant", async () => {
      const response = await call('PATCH', `/api/v1/users/${own.colleagueId}`, own.token, { tenantId: otherTenantId });

      expect(response.status).toBe(403);
      expect((await ctx.services.users.repository.findById(own.colleagueId))?.tenantId).toBe(own.tenantId);
    });
  });
});
