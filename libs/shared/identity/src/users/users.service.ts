import type { Transaction } from 'sequelize';
import { changedFields, type AuditService } from '../audit/index.js';
import type { Config } from '@wms/platform';
import {
  canManageUser,
  canSetCredentials,
  modulesBeyond,
  ranksBelow,
  type ManagedUser,
  type Principal,
  type Role,
} from '../access/index.js';
import type { Database } from '@wms/platform';
import { AppError, unitOfWork } from '@wms/platform';
import { TenantsService } from '../tenants/index.js';
import type { ListPage } from '@wms/platform';
import { isUuid, validate } from '@wms/platform';
import { hashPassword } from './passwords.js';
import { toUserRecord, type ManagedUserRecord, type UserAttributes } from './user.model.js';
import { UsersRepository, type UserChanges } from './users.repository.js';
import {
  createUserSchema,
  encodeUserCursor,
  listUsersQuerySchema,
  updateUserSchema,
  type UpdateUserInput,
} from './users.schema.js';

/** Fields a user may change on its own record through the users endpoints; the rest needs another user. */
const SELF_EDITABLE = new Set(['firstName', 'lastName', 'language']);

const USER_ENTITY = 'user';
/** What an audit entry keeps of a user: never the password hash, and no login bookkeeping. */
const AUDITED_FIELDS = [
  'email',
  'firstName',
  'lastName',
  'role',
  'language',
  'tenantId',
  'adminModules',
  'adminModulesWrite',
  'status',
] as const;

/**
 * Users administration (module `users`) and its privilege rules, so every caller gets them:
 * - a tenant-bound actor (admin included) sees and changes only its tenant's users; any other user is a 404;
 * - a non-admin manages only users ranked strictly below it whose read and write modules are a subset of its
 *   own (canManageUser), before and after the change: it assigns only lower roles and modules it holds;
 * - only an admin sets another user's password or e-mail;
 * - nobody changes its own role, modules, tenant, e-mail, password or status here (change-password is
 *   the way to a new password), so no one can raise or lock out themselves.
 * Every user answered carries `canManage` and `canSetCredentials` for the actor who asked.
 */
export class UsersService {
  readonly repository: UsersRepository;
  private readonly tenants: TenantsService;

  constructor(
    private readonly db: Database,
    private readonly config: Pick<Config, 'bcryptRounds'>,
    private readonly audit: AuditService,
  ) {
    this.repository = new UsersRepository(db);
    this.tenants = new TenantsService(db);
  }

  async create(actor: Principal, body: unknown): Promise<ManagedUserRecord> {
    const input = validate(createUserSchema, body);
    assertAssignableRole(actor, input.role);
    const tenantId = await this.resolveTenant(actor, input.tenantId);
    const adminModules = input.adminModules ?? [];
    const adminModulesWrite = input.adminModulesWrite ?? [];
    assertGrantable(actor, { adminModules, adminModulesWrite });
    const passwordHash = await hashPassword(input.password, this.config.bcryptRounds);
    const user = await unitOfWork(this.db, async (transaction) => {
      const created = await this.repository.insert(
        {
          email: input.email,
          passwordHash,
          firstName: input.firstName ?? '',
          lastName: input.lastName ?? '',
          role: input.role,
          language: input.language ?? 'en',
          tenantId,
          adminModules,
          adminModulesWrite,
        },
        transaction,
      );
      const snapshot = Object.fromEntries(AUDITED_FIELDS.map((field) => [field, created[field]]));
      await this.audit.record(
        {
          action: 'user.created',
          entityType: USER_ENTITY,
          entityId: created.id,
          tenantId: created.tenantId,
          actorUserId: actor.sub,
          changes: snapshot,
        },
        transaction,
      );
      return created;
    });
    return managedRecord(actor, user);
  }

  /** One page of users by e-mail; `nextCursor` (the last e-mail, encoded) continues it. */
  async page(actor: Principal, query: unknown): Promise<ListPage<ManagedUserRecord>> {
    const { limit, cursor, ...filter } = validate(listUsersQuerySchema, query ?? {}, 'Invalid query');
    if (actor.tenantId && filter.tenantId && filter.tenantId !== actor.tenantId) throw tenantMismatch();
    const users = await this.repository.list(
      { ...filter, tenantId: actor.tenantId ?? filter.tenantId },
      { limit: limit + 1, afterEmail: cursor },
    );
    const data = users.slice(0, limit).map((user) => managedRecord(actor, user));
    const last = users.length > limit ? users[limit - 1] : undefined;
    return { data, nextCursor: last ? encodeUserCursor(last.email) : null };
  }

  /** The first page of users (see page). */
  async list(actor: Principal, query: unknown): Promise<ManagedUserRecord[]> {
    return (await this.page(actor, query)).data;
  }

  async get(actor: Principal, id: string): Promise<ManagedUserRecord> {
    const user = isUuid(id) ? await this.repository.findById(id) : null;
    if (!user || !isVisibleTo(actor, user)) throw userNotFound(id);
    return managedRecord(actor, user);
  }

  async update(actor: Principal, id: string, body: unknown): Promise<ManagedUserRecord> {
    const input = validate(updateUserSchema, body);
    return this.changeUser(actor, id, 'user.updated', async (target, transaction) => {
      if (target.id === actor.sub) assertSelfEditable(input);
      else if ((input.password !== undefined || input.email !== undefined) && !canSetCredentials(actor, target)) {
        throw AppError.forbidden("Only an admin sets another user's password or e-mail", 'CREDENTIALS_ADMIN_ONLY');
      }
      if (input.role !== undefined && input.role !== target.role) assertAssignableRole(actor, input.role);
      assertGrantable(actor, {
        adminModules: input.adminModules ?? target.adminModules,
        adminModulesWrite: input.adminModulesWrite ?? target.adminModulesWrite,
      });
      const { password, tenantId, ...fields } = input;
      const changes: UserChanges = { ...fields };
      if (tenantId !== undefined) changes.tenantId = await this.resolveTenant(actor, tenantId);
      if (password !== undefined) {
        changes.passwordHash = await hashPassword(password, this.config.bcryptRounds);
        changes.passwordChangedAt = new Date();
      }
      return this.repository.update(target.id, changes, transaction);
    });
  }

  /** Any state → inactive. Login and refresh are refused from then on. */
  async disable(actor: Principal, id: string): Promise<ManagedUserRecord> {
    return this.changeUser(actor, id, 'user.disabled', (target, transaction) => {
      assertNotSelf(actor, target, 'disable');
      return this.repository.update(target.id, { status: 'inactive' }, transaction);
    });
  }

  /** Any state → active, with the failed-login count reset. */
  async enable(actor: Principal, id: string): Promise<ManagedUserRecord> {
    return this.changeUser(actor, id, 'user.enabled', (target, transaction) => {
      assertNotSelf(actor, target, 'enable');
      return this.repository.update(target.id, { status: 'active', failedLoginCount: 0 }, transaction);
    });
  }

  /** locked → active with the failed-login count reset; never revives a disabled user (that is enable). */
  async unlock(actor: Principal, id: string): Promise<ManagedUserRecord> {
    return this.changeUser(actor, id, 'user.unlocked', (target, transaction) => {
      assertNotSelf(actor, target, 'unlock');
      if (target.status === 'inactive') {
        throw new AppError('INVALID_STATE', 'User is inactive, not locked; enable it instead');
      }
      return this.repository.update(target.id, { status: 'active', failedLoginCount: 0 }, transaction);
    });
  }

  /**
   * Loads the target under a row lock, applies visibility and rank rules, runs the change and audits what
   * it changed, in the same transaction. A change that changes nothing audits nothing; a new password is
   * audited as changed, never by value or hash.
   */
  private async changeUser(
    actor: Principal,
    id: string,
    action: string,
    change: (target: UserAttributes, transaction: Transaction) => Promise<UserAttributes>,
  ): Promise<ManagedUserRecord> {
    if (!isUuid(id)) throw userNotFound(id);
    const updated = await unitOfWork(this.db, async (transaction) => {
      const target = await this.repository.findById(id, { transaction, lock: true });
      if (!target || !isVisibleTo(actor, target)) throw userNotFound(id);
      // Oneself is not managed: the self rules (names and language only, never status) apply instead.
      if (target.id !== actor.sub) assertManageable(actor, target);
      const after = await change(target, transaction);
      const diff: Record<string, unknown> = changedFields(target, after, AUDITED_FIELDS);
      if (after.passwordHash !== target.passwordHash) diff.password = 'changed';
      if (Object.keys(diff).length) {
        await this.audit.record(
          {
            action,
            entityType: USER_ENTITY,
            entityId: id,
            tenantId: after.tenantId,
            actorUserId: actor.sub,
            changes: diff,
          },
          transaction,
        );
      }
      return after;
    });
    return managedRecord(actor, updated);
  }

  /**
   * A tenant-bound actor's users stay in its tenant (omitted = its own); a cross-tenant actor may name
   * any existing tenant, or none for a cross-tenant user.
   */
  private async resolveTenant(actor: Principal, requested: string | null | undefined): Promise<string | null> {
    if (actor.tenantId) {
      if (requested === undefined || requested === actor.tenantId) return actor.tenantId;
      if (requested === null)
        throw AppError.forbidden('A tenant-bound user cannot make a cross-tenant user', 'TENANT_MISMATCH');
      throw tenantMismatch();
    }
    if (requested) await this.tenants.requireExisting(requested);
    return requested ?? null;
  }
}

function isVisibleTo(actor: Principal, user: UserAttributes): boolean {
  return !actor.tenantId || user.tenantId === actor.tenantId;
}

/** The user as the users endpoints answer it to this actor: whether it may manage it, and set its credentials. */
function managedRecord(actor: Principal, user: UserAttributes): ManagedUserRecord {
  const self = user.id === actor.sub;
  return {
    ...toUserRecord(user),
    canManage: !self && canManageUser(actor, user),
    canSetCredentials: !self && canSetCredentials(actor, user),
  };
}

/** A non-admin manages only users ranked strictly below it that reach nothing it does not. */
function assertManageable(actor: Principal, target: ManagedUser): void {
  if (canManageUser(actor, target)) return;
  if (!ranksBelow(target.role, actor.role)) {
    throw AppError.forbidden(
      `A ${actor.role} manages only users ranked below it, not a ${target.role}`,
      'INSUFFICIENT_ROLE',
    );
  }
  throw AppError.forbidden(
    `A ${actor.role} cannot manage a user holding modules it lacks: ${modulesBeyond(actor, target).join(', ')}`,
    'INSUFFICIENT_MODULES',
  );
}

function assertAssignableRole(actor: Principal, role: Role): void {
  if (actor.role === 'admin') return;
  if (!ranksBelow(role, actor.role)) {
    throw AppError.forbidden(
      `A ${actor.role} assigns only roles ranked below its own, not ${role}`,
      'INSUFFICIENT_ROLE',
    );
  }
}

/** The modules a user has after the change must all be held by a non-admin actor, at the same level. */
function assertGrantable(actor: Principal, after: { adminModules: string[]; adminModulesWrite: string[] }): void {
  if (actor.role === 'admin') return;
  const lacking = modulesBeyond(actor, after);
  if (lacking.length) {
    throw AppError.forbidden(`You cannot grant modules you do not hold: ${lacking.join(', ')}`, 'MODULE_NOT_GRANTABLE');
  }
}

function assertSelfEditable(input: UpdateUserInput): void {
  const refused = Object.keys(input).filter((field) => !SELF_EDITABLE.has(field));
  if (refused.length) {
    throw AppError.forbidden(
      `You cannot change your own ${refused.join(', ')}; another user with the users module must (use change-password for a new password)`,
      'SELF_CHANGE_NOT_ALLOWED',
    );
  }
}

function assertNotSelf(actor: Principal, target: UserAttributes, action: string): void {
  if (target.id === actor.sub)
    throw AppError.forbidden(`You cannot ${action} your own account`, 'SELF_CHANGE_NOT_ALLOWED');
}

function userNotFound(id: string): AppError {
  return AppError.notFound(`User ${id} not found`);
}

function tenantMismatch(): AppError {
  return AppError.forbidden('Access to another tenant is not allowed', 'TENANT_MISMATCH');
}
