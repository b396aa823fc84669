import type { AdminModule, Role } from '@wms/identity';
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

interface UserBody {
  id: string;
  email: string;
  role: string;
  status: string;
  canManage: boolean;
  canSetCredentials: boolean;
}

describe('who may manage whom (users endpoints)', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let adminToken: string;
  let tenantId: string;

  const call = <T = UserBody>(method: string, path: string, token: string, body?: unknown) =>
    request<T>(gateway.url, method, path, { token, body });

  const signIn = async (email: string, password: string) =>
    request(gateway.url, 'POST', '/api/v1/auth/login', { body: { email, password } });

  /** A user of the test tenant and its access token. */
  async function member(role: Role, modules: AdminModule[] = [], writeModules: AdminModule[] = modules) {
    const { user, password } = await createUser(ctx, {
      role,
      tenantId,
      adminModules: modules,
      adminModulesWrite: writeModules,
    });
    return { user, password, token: await loginAs(gateway.url, user.email, password) };
  }

  beforeAll(async () => {
    ctx = await createTestContext('users-manage-whom');
    gateway = await ctx.startGateway();
    adminToken = await loginAs(gateway.url, TEST_ADMIN.email, TEST_ADMIN.password);
    tenantId = (await createTenantWithWarehouse(ctx)).tenant.id;
  });
  afterAll(() => ctx.close());

  describe('a manager holding only the users module', () => {
    it("cannot set a peer manager's password: 403, and the peer still signs in with its own", async () => {
      const manager = await member('manager', ['users']);
      const peer = await member('manager', ['users', 'api-keys', 'webhooks']);

      const response = await call('PATCH', `/api/v1/users/${peer.user.id}`, manager.token, {
        password: 'taken-over-password',
      });

      expect(response.status).toBe(403);
      expect((await signIn(peer.user.email, 'taken-over-password')).status).toBe(401);
      expect((await signIn(peer.user.email, peer.password)).status).toBe(200);
    });

    it("cannot change a peer manager's e-mail or name, nor disable, enable or unlock it", async () => {
      const manager = await member('manager', ['users']);
      const peer = await member('manager', ['users']);

      const answers = await Promise.all([
        call('PATCH', `/api/v1/users/${peer.user.id}`, manager.token, { email: 'mine@example.test' }),
        call('PATCH', `/api/v1/users/${peer.user.id}`, manager.token, { firstName: 'Renamed' }),
        call('POST', `/api/v1/users/${peer.user.id}/disable`, manager.token),
        call('POST', `/api/v1/users/${peer.user.id}/enable`, manager.token),
        call('POST', `/api/v1/users/${peer.user.id}/unlock`, manager.token),
      ]);

      expect(answers.map((answer) => answer.status)).toEqual([403, 403, 403, 403, 403]);
      expect(await ctx.services.users.repository.findById(peer.user.id)).toMatchObject({
        email: peer.user.email,
        firstName: 'Test',
        status: 'active',
      });
    });

    it('cannot change a supervisor holding a module the manager lacks; the answer names the module', async () => {
      const manager = await member('manager', ['users']);
      const supervisor = await member('supervisor', ['inventory']);

      const password = await call('PATCH', `/api/v1/users/${supervisor.user.id}`, manager.token, {
        password: 'taken-over-password',
      });
      const name = await call<{ message: string }>('PATCH', `/api/v1/users/${supervisor.user.id}`, manager.token, {
        firstName: 'Renamed',
      });
      const disable = await call('POST', `/api/v1/users/${supervisor.user.id}/disable`, manager.token);

      expect([password.status, name.status, disable.status]).toEqual([403, 403, 403]);
      expect(name.body.message).toContain('inventory');
      expect((await signIn(supervisor.user.email, supervisor.password)).status).toBe(200);
    });

    it('cannot create a user of its own rank or one holding a module it lacks', async () => {
      const manager = await member('manager', ['users']);

      const peer = await call('POST', '/api/v1/users', manager.token, {
        email: 'new-peer@example.test',
        password: 'password-123',
        role: 'manager',
      });
      const wider = await call('POST', '/api/v1/users', manager.token, {
        email: 'wider@example.test',
        password: 'password-123',
        role: 'operator',
        adminModules: ['orders'],
      });

      expect([peer.status, wider.status]).toEqual([403, 403]);
      expect(await ctx.services.users.repository.findByEmail('new-peer@example.test')).toBeNull();
      expect(await ctx.services.users.repository.findByEmail('wider@example.test')).toBeNull();
    });

    it('cannot raise a supervisor to its own rank nor give it a module it lacks', async () => {
      const manager = await member('manager', ['users', 'orders']);
      const supervisor = await member('supervisor', ['orders']);

      const raise = await call('PATCH', `/api/v1/users/${supervisor.user.id}`, manager.token, { role: 'manager' });
      const widen = await call('PATCH', `/api/v1/users/${supervisor.user.id}`, manager.token, {
        adminModules: ['orders', 'audit'],
      });

      expect([raise.status, widen.status]).toEqual([403, 403]);
      expect(await ctx.services.users.repository.findById(supervisor.user.id)).toMatchObject({
        role: 'supervisor',
        adminModules: ['orders'],
      });
    });
  });

  describe('a manager over a user it may manage (lower rank, modules a subset of its own)', () => {
    it('changes its name, role and modules, disables and enables it, but never sets its password or e-mail', async () => {
      const manager = await member('manager', ['users', 'orders']);
      const operator = await member('operator', ['orders']);

      const name = await call('PATCH', `/api/v1/users/${operator.user.id}`, manager.token, {
        firstName: 'Olive',
        role: 'supervisor',
        adminModules: [],
      });
      const disable = await call('POST', `/api/v1/users/${operator.user.id}/disable`, manager.token);
      const enable = await call('POST', `/api/v1/users/${operator.user.id}/enable`, manager.token);
      const password = await call<{ code?: string; message: string }>(
        'PATCH',
        `/api/v1/users/${operator.user.id}`,
        manager.token,
        { password: 'another-password' },
      );
      const email = await call('PATCH', `/api/v1/users/${operator.user.id}`, manager.token, {
        email: 'elsewhere@example.test',
      });

      expect([name.status, disable.status, enable.status]).toEqual([200, 200, 200]);
      expect(name.body).toMatchObject({ role: 'supervisor', canManage: true, canSetCredentials: false });
      expect([password.status, email.status]).toEqual([403, 403]);
      expect(password.body.message).toMatch(/only an admin/i);
      expect((await signIn(operator.user.email, operator.password)).status).toBe(200);
    });

    it('unlocks a locked user below it', async () => {
      const manager = await member('manager', ['users']);
      const { user } = await createUser(ctx, { role: 'viewer', tenantId, status: 'locked' });

      const response = await call('POST', `/api/v1/users/${user.id}/unlock`, manager.token);

      expect(response.status).toBe(200);
      expect(response.body.status).toBe('active');
    });
  });

  describe('the list and detail tell the caller whom it may manage', () => {
    it('canManage and canSetCredentials follow the rule for a manager, and are true for an admin', async () => {
      const manager = await member('manager', ['users']);
      const peer = await member('manager', ['users']);
      const wider = await member('supervisor', ['audit']);
      const lower = await member('viewer');

      const list = await call<UserBody[]>('GET', `/api/v1/users?limit=500`, manager.token);
      const detail = await call('GET', `/api/v1/users/${lower.user.id}`, manager.token);
      const asAdmin = await call('GET', `/api/v1/users/${peer.user.id}`, adminToken);

      const seen = new Map(list.body.map((user) => [user.id, [user.canManage, user.canSetCredentials]]));
      expect(seen.get(manager.user.id)).toEqual([false, false]);
      expect(seen.get(peer.user.id)).toEqual([false, false]);
      expect(seen.get(wider.user.id)).toEqual([false, false]);
      expect(seen.get(lower.user.id)).toEqual([true, false]);
      expect(detail.body).toMatchObject({ canManage: true, canSetCredentials: false });
      expect(asAdmin.body).toMatchObject({ canManage: true, canSetCredentials: true });
    });
  });

  describe('an admin', () => {
    it("sets a manager's password and e-mail; the manager signs in with the new ones", async () => {
      const target = await member('manager', ['users', 'orders']);

      const response = await call('PATCH', `/api/v1/users/${target.user.id}`, adminToken, {
        password: 'reset-by-admin-1',
        email: 'renamed-manager@example.test',
      });

      expect(response.status).toBe(200);
      expect((await signIn('renamed-manager@example.test', 'reset-by-admin-1')).status).toBe(200);
    });
  });
});
