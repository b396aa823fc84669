import type { Transaction, WhereOptions } from 'sequelize';
import type { Database } from '../db/models.js';
import { AppError } from '../errors/index.js';
import type { UserAttributes, UserStatus } from './user.model.js';
import type { Role } from '../auth/permissions.js';

type NewUser = Pick<UserAttributes, 'email' | 'passwordHash' | 'role'> &
  Partial<Pick<UserAttributes, 'firstName' | 'lastName' | 'language' | 'tenantId' | 'adminModules' | 'adminModulesWrite' | 'lastLoginAt'>>;

export type UserChanges = Partial<Omit<UserAttributes, 'id' | 'createdAt' | 'updatedAt'>>;

export interface UserFilter {
  /** undefined: every tenant's users and the cross-tenant ones. */
  tenantId?: string;
  status?: UserStatus;
  role?: Role;
}

function duplicateEmail(email: string): AppError {
  return AppError.conflict('USER_EXISTS', `A user with email ${email} already exists`);
}

function isUniqueViolation(error: unknown): boolean {
  return (error as { name?: string }).name === 'SequelizeUniqueConstraintError';
}

/** Reads and writes `users`; every method returns plain objects. */
export class UsersRepository {
  constructor(private readonly db: Database) {}

  async findById(id: string, options: { transaction?: Transaction; lock?: boolean } = {}): Promise<UserAttributes | null> {
    const row = await this.db.models.User.findByPk(id, {
      transaction: options.transaction,
      lock: options.lock && options.transaction ? options.transaction.LOCK.UPDATE : undefined,
    });
    return row ? row.get({ plain: true }) : null;
  }

  async findByEmail(email: string): Promise<UserAttributes | null> {
    const row = await this.db.models.User.findOne({ where: { email } });
    return row ? row.get({ plain: true }) : null;
  }

  async list(filter: UserFilter): Promise<UserAttributes[]> {
    const where: WhereOptions<UserAttributes> = {
      ...(filter.tenantId ? { tenantId: filter.tenantId } : {}),
      ...(filter.status ? { status: filter.status } : {}),
      ...(filter.role ? { role: filter.role } : {}),
    };
    const rows = await this.db.models.User.findAll({ where, order: [['email', 'ASC']] });
    return rows.map((row) => row.get({ plain: true }));
  }

  async insert(user: NewUser, transaction?: Transaction): Promise<UserAttributes> {
    try {
      const row = await this.db.models.User.create(user, { transaction });
      return row.get({ plain: true });
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateEmail(user.email);
      throw error;
    }
  }

  async update(id: string, changes: UserChanges, transaction?: Transaction): Promise<UserAttributes> {
    try {
      const [, rows] = await this.db.models.User.update(changes, { where: { id }, returning: true, transaction });
      const row = rows[0];
      if (!row) throw AppError.notFound(`User ${id} not found`);
      return row.get({ plain: true });
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateEmail(String(changes.email));
      throw error;
    }
  }

  /** Counts a wrong password atomically; the `max`-th consecutive one locks the account. */
  async recordFailedLogin(userId: string, max: number): Promise<void> {
    await this.db.sequelize.query(
      `UPDATE users
          SET failed_login_count = failed_login_count + 1,
              status = CASE WHEN failed_login_count + 1 >= :max THEN 'locked' ELSE status END,
              updated_at = now()
        WHERE id = :userId AND status = 'active'`,
      { replacements: { userId, max } },
    );
  }
}
