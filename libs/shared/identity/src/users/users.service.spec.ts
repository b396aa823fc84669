import type { Principal, Role } from '../access/index.js';
import { principalOf } from '../auth/index.js';
import { type UserAttributes, userModel } from './user.model.js';
import { AppError } from '@wms/platform';
import { createTestContext, createUser, type TestContext } from '@wms/testing';

type Modules = Parameters<typeof createUser>[1];

describe('UsersService privilege rules', () => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await createTestContext('users-service');
  });
  afterAll(() => ctx.close());

  async function actorWith(role: Role, attributes: Modules = {}): Promise<Principal> {
    const { user } = await createUser(ctx, {
      role,
      adminModules: ['users'],
      adminModulesWrite: ['users'],
      ...attributes,
    });
    return principalOf((await ctx.services.users.repository.findById(user.id)) as UserAttributes);
  }

  async function refusal(action: Promise<unknown>): Promise<AppError> {
    const error = await action.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
    return error;
  }

  const newUser = (role: Role, extra: Record<string, unknown> = {}) => ({
    email: `u-${Math.random().toString(36).slice(2)}@example.test`,
    password: 'password-123',
    role,
    ...extra,
  });

  it('only role admin may create an admin', async () => {
    const manager = await actorWith('manager');
    const admin = await actorWith('admin');

    const refused = await refusal(ctx.services.users.create(manager, newUser('admin')));
    const created = await ctx.services.users.create(admin, newUser('admin'));

    expect(refused).toMatchObject({ status: 403, code: 'INSUFFICIENT_ROLE' });
    expect(created.role).toBe('admin');
  });

  it('a non-admin assigns only roles ranked strictly below its own', async () => {
    const supervisor = await actorWith('supervisor');

    const above = await refusal(ctx.services.users.create(supervisor, newUser('manager')));
    const same = await refusal(ctx.services.users.create(supervisor, newUser('supervisor')));
    const below = await ctx.services.users.create(supervisor, newUser('operator'));

    expect([above.code, same.code]).toEqual(['INSUFFICIENT_ROLE', 'INSUFFICIENT_ROLE']);
    expect(below.role).toBe('operator');
  });

  it('a non-admin cannot promote a user to admin', async () => {
    const manager = await actorWith('manager');
    const { user } = await createUser(ctx, { role: 'viewer' });

    const error = await refusal(ctx.services.users.update(manager, user.id, { role: 'admin' }));

    expect(error.status).toBe(403);
    expect((await ctx.services.users.get(manager, user.id)).role).toBe('viewer');
  });

  it('a non-admin grants only the modules it holds, at the level it holds them', async () => {
    const manager = await actorWith('manager', { adminModules: ['users', 'orders'], adminModulesWrite: ['users'] });

    const readOrders = await ctx.services.users.create(manager, newUser('viewer', { adminModules: ['orders'] }));
    const writeOrders = await refusal(
      ctx.services.users.create(manager, newUser('viewer', { adminModulesWrite: ['orders'] })),
    );
    const readAudit = await refusal(ctx.services.users.create(manager, newUser('viewer', { adminModules: ['audit'] })));

    expect(readOrders.adminModules).toEqual(['orders']);
    expect(writeOrders.message).toMatch(/orders \(write\)/);
    expect(readAudit).toMatchObject({ status: 403, code: 'MODULE_NOT_GRANTABLE' });
  });

  it('a non-admin cannot change a user holding a module it lacks, not even to remove that module', async () => {
    const manager = await actorWith('manager');
    const { user } = await createUser(ctx, { role: 'viewer', adminModules: ['audit', 'inventory'] });

    const error = await refusal(ctx.services.users.update(manager, user.id, { adminModules: ['audit'] }));

    expect(error).toMatchObject({ status: 403, code: 'INSUFFICIENT_MODULES' });
    expect(error.message).toMatch(/audit, inventory/);
    expect((await ctx.services.users.repository.findById(user.id))?.adminModules).toEqual(['audit', 'inventory']);
  });

  it('a non-admin cannot change, disable or unlock a user of a higher role', async () => {
    const supervisor = await actorWith('supervisor');
    const { user: manager } = await createUser(ctx, { role: 'manager' });
    const { user: admin } = await createUser(ctx, { role: 'admin', status: 'locked' });

    const patch = await refusal(ctx.services.users.update(supervisor, manager.id, { firstName: 'X' }));
    const disable = await refusal(ctx.services.users.disable(supervisor, manager.id));
    const unlock = await refusal(ctx.services.users.unlock(supervisor, admin.id));

    expect([patch.status, disable.status, unlock.status]).toEqual([403, 403, 403]);
    expect((await ctx.services.users.repository.findById(admin.id))?.status).toBe('locked');
  });

  it('a user may change its own name and language, but not its role, modules, e-mail or password', async () => {
    const manager = await actorWith('manager');

    const names = await ctx.services.users.update(manager, manager.sub, { firstName: 'Mia', language: 'de' });
    const role = await refusal(ctx.services.users.update(manager, manager.sub, { role: 'viewer' }));
    const modules = await refusal(ctx.services.users.update(manager, manager.sub, { adminModules: [] }));
    const password = await refusal(ctx.services.users.update(manager, manager.sub, { password: 'another-password' }));

    expect(names).toMatchObject({ firstName: 'Mia', language: 'de' });
    expect([role.code, modules.code, password.code]).toEqual([
      'SELF_CHANGE_NOT_ALLOWED',
      'SELF_CHANGE_NOT_ALLOWED',
      'SELF_CHANGE_NOT_ALLOWED',
    ]);
  });

  it('a user cannot disable, enable or unlock itself', async () => {
    const admin = await actorWith('admin');

    const errors = await Promise.all([
      refusal(ctx.services.users.disable(admin, admin.sub)),
      refusal(ctx.services.users.enable(admin, admin.sub)),
      refusal(ctx.services.users.unlock(admin, admin.sub)),
    ]);

    expect(errors.map((error) => error.code)).toEqual([
      'SELF_CHANGE_NOT_ALLOWED',
      'SELF_CHANGE_NOT_ALLOWED',
      'SELF_CHANGE_NOT_ALLOWED',
    ]);
  });

  it('a tenant-bound actor cannot make a cross-tenant user', async () => {
    const tenant = await ctx.services.tenants.create({ code: 'RULES', name: 'Rules' });
    const bound = await actorWith('manager', { tenantId: tenant.id });
    const { user } = await createUser(ctx, { tenantId: tenant.id });

    const create = await refusal(ctx.services.users.create(bound, newUser('viewer', { tenantId: null })));
    const patch = await refusal(ctx.services.users.update(bound, user.id, { tenantId: null }));

    expect([create.code, patch.code]).toEqual(['TENANT_MISMATCH', 'TENANT_MISMATCH']);
  });

  it('unlock resets the failed-login count of a locked user', async () => {
    const admin = await actorWith('admin');
    const { user } = await createUser(ctx, { status: 'locked' });
    await userModel(ctx.runtime.db).update({ failedLoginCount: 5 }, { where: { id: user.id } });

    const unlocked = await ctx.services.users.unlock(admin, user.id);

    expect(unlocked).toMatchObject({ status: 'active', failedLoginCount: 0 });
  });
});
