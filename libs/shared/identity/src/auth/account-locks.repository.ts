import { QueryTypes } from 'sequelize';
import type { Database, UnitOfWork } from '@wms/platform';

/** The account a lock or reset concerns, as the operator command reports it. */
export interface AccountRow {
  id: string;
  email: string;
  status: string;
}

/** The account writes of lock expiry and of the operator command (`npm run wms -- users …`) on `users`. */
export class AccountLocksRepository {
  constructor(private readonly db: Database) {}

  /**
   * Lifts a lock older than `lockSeconds` (count reset), atomically: answers true when this call lifted it,
   * false when the account is not locked or its lock is still running.
   */
  async expireLock(userId: string, lockSeconds: number): Promise<boolean> {
    const [, count] = (await this.db.sequelize.query(
      `UPDATE users SET status = 'active', failed_login_count = 0, locked_at = NULL, updated_at = now()
        WHERE id = $1 AND status = 'locked'
          AND coalesce(locked_at, updated_at) <= now() - make_interval(secs => $2)`,
      { bind: [userId, lockSeconds], type: QueryTypes.UPDATE },
    )) as [unknown, number];
    return count > 0;
  }

  async findByEmail(email: string): Promise<AccountRow | null> {
    const [rows] = (await this.db.sequelize.query(`SELECT id, email, status FROM users WHERE email = $1`, {
      bind: [email],
    })) as [AccountRow[], unknown];
    return rows[0] ?? null;
  }

  /** Locked → active with the count reset; an inactive (disabled) account stays as it is. */
  async unlock(userId: string): Promise<AccountRow | null> {
    const [rows] = (await this.db.sequelize.query(
      `UPDATE users SET status = CASE WHEN status = 'locked' THEN 'active' ELSE status END,
                        failed_login_count = 0, locked_at = NULL, updated_at = now()
        WHERE id = $1
        RETURNING id, email, status`,
      { bind: [userId] },
    )) as [AccountRow[], unknown];
    return rows[0] ?? null;
  }

  /** Sets a new password hash and unlocks (never enables a disabled account); the change time voids old sessions. */
  async resetPassword(userId: string, passwordHash: string, transaction?: UnitOfWork): Promise<AccountRow | null> {
    const [rows] = (await this.db.sequelize.query(
      `UPDATE users SET password_hash = $2, password_changed_at = now(),
                        status = CASE WHEN status = 'locked' THEN 'active' ELSE status END,
                        failed_login_count = 0, locked_at = NULL, updated_at = now()
        WHERE id = $1
        RETURNING id, email, status`,
      { bind: [userId, passwordHash], transaction },
    )) as [AccountRow[], unknown];
    return rows[0] ?? null;
  }
}
