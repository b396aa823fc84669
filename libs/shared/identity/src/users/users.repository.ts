import { Op, type Transaction, type WhereOptions } from 'sequelize';
import { containsPattern, routedRead, type Database } from '@wms/platform';
import { AppError } from '@wms/platform';
import { userModel, type UserAttributes, type UserStatus } from './user.model.js';
import type { Role } from '../access/index.js';

type NewUser = Pick<UserAttributes, 'email' | 'passwordHash' | 'role'> &
  Partial<
    Pick<
      UserAttributes,
      'firstName' | 'lastName' | 'language' | 'tenantId' | 'adminModules' | 'adminModulesWrite' | 'lastLoginAt'
    >
  >;

export type UserChanges = Partial<Omit<UserAttributes, 'id' | 'createdAt' | 'updatedAt'>>;

export interface UserFilter {
  /** undefined: every tenant's users and the cross-tenant ones. */
  tenantId?: string;
  status?: UserStatus;
  role?: Role;
  /** Part of the e-mail, first or last name, any case. */
  q?: string;
}

const searchedFields = ['email', 'firstName', 'lastName'] as const;

function duplicateEmail(email: string): AppError {
  return AppError.conflict('USER_EXISTS', `A user with email ${email} already exists`);
}

function isUniqueViolation(error: unknown): boolean {
  return (error as { name?: string }).name === 'SequelizeUniqueConstraintError';
}

/** Reads and writes `users`; every method returns plain objects. */
export class UsersRepository {
  constructor(private readonly db: Database) {}

  async findById(
    id: string,
    options: { transaction?: Transaction; lock?: boolean } = {},
  ): Promise<UserAttributes | null> {
    const row = await userModel(this.db).findByPk(id, {
      transaction: options.transaction,
      lock: options.lock && options.transaction ? options.transaction.LOCK.UPDATE : undefined,
    });
    return row ? row.get({ plain: true }) : null;
  }

  /** Inserts the user unless one of this e-mail exists (an existing one is left as it is); true when inserted. */
  async insertIfMissing(user: NewUser, transaction: Transaction): Promise<boolean> {
    const [, inserted] = (await this.db.sequelize.query(
      `INSERT INTO users (email, password_hash, first_name, last_name, role, tenant_id)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (email) DO NOTHING`,
      {
        bind: [
          user.email,
          user.passwordHash,
          user.firstName ?? null,
          user.lastName ?? null,
          user.role,
          user.tenantId ?? null,
        ],
        transaction,
      },
    )) as [unknown, number];
    return inserted > 0;
  }

  async findByEmail(email: string): Promise<UserAttributes | null> {
    const row = await userModel(this.db).findOne({ where: { email } });
    return row ? row.get({ plain: true }) : null;
  }

  /** In e-mail order; `page` reads at most `limit` users after the e-mail `afterEmail` (the unique index). */
  async list(filter: UserFilter, page: { limit?: number; afterEmail?: string } = {}): Promise<UserAttributes[]> {
    const where: WhereOptions<UserAttributes> = {
      ...(page.afterEmail !== undefined ? { email: { [Op.gt]: page.afterEmail } } : {}),
      ...(filter.tenantId ? { tenantId: filter.tenantId } : {}),
      ...(filter.status ? { status: filter.status } : {}),
      ...(filter.role ? { role: filter.role } : {}),
      ...(filter.q
        ? { [Op.or]: searchedFields.map((field) => ({ [field]: { [Op.iLike]: containsPattern(filter.q!) } })) }
        : {}),
    };
    const rows = await routedRead(this.db, (from) =>
      userModel(from).findAll({ where, order: [['email', 'ASC']], limit: page.limit }),
    );
    return rows.map((row) => row.get({ plain: true }));
  }

  async insert(user: NewUser, transaction?: Transaction): Promise<UserAttributes> {
    try {
      const row = await userModel(this.db).create(user, { transaction });
      return row.get({ plain: true });
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateEmail(user.email);
      throw error;
    }
  }

  async update(id: string, changes: UserChanges, transaction?: Transaction): Promise<UserAttributes> {
    try {
      const [, rows] = await userModel(this.db).update(changes, { where: { id }, returning: true, transaction });
      const row = rows[0];
      if (!row) throw AppError.notFound(`User ${id} not found`);
      return row.get({ plain: true });
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateEmail(String(changes.email));
      throw error;
    }
  }

  /** Records a login: clears the failure count. Null when the user stopped being active meanwhile. */
  async recordLogin(userId: string): Promise<UserAttributes | null> {
    const [, rows] = await userModel(this.db).update(
      { lastLoginAt: new Date(), failedLoginCount: 0 },
      { where: { id: userId, status: 'active' }, returning: true },
    );
    return rows[0]?.get({ plain: true }) ?? null;
  }

  /** Counts a wrong password atomically; the `max`-th consecutive one locks the account (and says since when). */
  async recordFailedLogin(userId: string, max: number): Promise<void> {
    await this.db.sequelize.query(
      `UPDATE users
          SET failed_login_count = failed_login_count + 1,
              status = CASE WHEN failed_login_count + 1 >= $2 THEN 'locked' ELSE status END,
              locked_at = CASE WHEN failed_login_count + 1 >= $2 THEN now() ELSE locked_at END,
              updated_at = now()
        WHERE id = $1 AND status = 'active'`,
      { bind: [userId, max] },
    );
  }
}
