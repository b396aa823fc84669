import { QueryTypes } from 'sequelize';
import type { Database, UnitOfWork } from '@wms/platform';

/** Why a family stopped: signed out, a rotated token came back, or its user's password changed or was reset. */
export type RevokeReason = 'logout' | 'reuse' | 'password-changed' | 'password-reset';

/** A refresh token as stored: its SHA-256 digest (hex) and when it stops being accepted. */
export interface StoredToken {
  hash: string;
  expiresAt: Date;
}

/**
 * What presenting a stored token led to: `rotated` (the successor now stands for the family), `reused`
 * (the token had been rotated already: the family is revoked now), `revoked` (the family had ended) or
 * `unknown` (no such token: never issued, or purged once expired).
 */
export type RotationOutcome =
  | { kind: 'rotated'; familyId: string }
  | { kind: 'reused'; familyId: string }
  | { kind: 'revoked' }
  | { kind: 'unknown' };

interface PresentedRow {
  familyId: string;
  userId: string;
  usedAt: Date | null;
  revokedAt: Date | null;
}

/** Reads and writes `refresh_token_families` and `refresh_tokens`. */
export class RefreshTokensRepository {
  constructor(private readonly db: Database) {}

  /** Starts a family with its first token; families of the user that expired or ended are purged first. */
  async startFamily(familyId: string, userId: string, token: StoredToken, transaction?: UnitOfWork): Promise<void> {
    await this.db.sequelize.query(
      `DELETE FROM refresh_token_families
        WHERE user_id = $1 AND (expires_at < now() OR revoked_at IS NOT NULL)`,
      { bind: [userId], transaction },
    );
    await this.db.sequelize.query(`INSERT INTO refresh_token_families (id, user_id, expires_at) VALUES ($1, $2, $3)`, {
      bind: [familyId, userId, token.expiresAt],
      transaction,
    });
    await this.insertToken(familyId, token, transaction);
  }

  /**
   * Exchanges `presented` for `successor` within the family of `userId`, in the caller's unit of work, which
   * holds the family's row lock, so a concurrent logout or reuse cannot leave a successor alive in an ended
   * family.
   */
  async rotate(
    userId: string,
    presentedHash: string,
    successor: StoredToken,
    transaction: UnitOfWork,
  ): Promise<RotationOutcome> {
    const [rows] = (await this.db.sequelize.query(
      `SELECT t.family_id AS "familyId", f.user_id AS "userId", t.used_at AS "usedAt", f.revoked_at AS "revokedAt"
         FROM refresh_tokens t JOIN refresh_token_families f ON f.id = t.family_id
        WHERE t.token_hash = decode($1, 'hex')
          FOR UPDATE OF f`,
      { bind: [presentedHash], transaction },
    )) as [PresentedRow[], unknown];
    const row = rows[0];
    if (!row || row.userId !== userId) return { kind: 'unknown' };
    if (row.revokedAt) return { kind: 'revoked' };
    if (row.usedAt) {
      await this.revokeFamilyIn(row.familyId, 'reuse', transaction);
      return { kind: 'reused', familyId: row.familyId };
    }
    await this.db.sequelize.query(`UPDATE refresh_tokens SET used_at = now() WHERE token_hash = decode($1, 'hex')`, {
      bind: [presentedHash],
      transaction,
    });
    // Tokens of the family that expired can no longer be presented (their signature check refuses them).
    await this.db.sequelize.query(`DELETE FROM refresh_tokens WHERE family_id = $1 AND expires_at < now()`, {
      bind: [row.familyId],
      transaction,
    });
    await this.db.sequelize.query(
      `UPDATE refresh_token_families SET expires_at = greatest(expires_at, $2) WHERE id = $1`,
      { bind: [row.familyId, successor.expiresAt], transaction },
    );
    await this.insertToken(row.familyId, successor, transaction);
    return { kind: 'rotated', familyId: row.familyId };
  }

  /** Revokes the family the token belongs to; false when no live family holds it. */
  async revokeFamilyOf(tokenHash: string, reason: RevokeReason): Promise<boolean> {
    const [, count] = (await this.db.sequelize.query(
      `UPDATE refresh_token_families f SET revoked_at = now(), revoked_reason = $2
         FROM refresh_tokens t
        WHERE t.token_hash = decode($1, 'hex') AND f.id = t.family_id AND f.revoked_at IS NULL`,
      { bind: [tokenHash, reason], type: QueryTypes.UPDATE },
    )) as [unknown, number];
    return count > 0;
  }

  /** Revokes every live family of the user (a password change or reset); answers how many. */
  async revokeAllOf(userId: string, reason: RevokeReason, transaction?: UnitOfWork): Promise<number> {
    const [, count] = (await this.db.sequelize.query(
      `UPDATE refresh_token_families SET revoked_at = now(), revoked_reason = $2
        WHERE user_id = $1 AND revoked_at IS NULL`,
      { bind: [userId, reason], transaction, type: QueryTypes.UPDATE },
    )) as [unknown, number];
    return count;
  }

  private revokeFamilyIn(familyId: string, reason: RevokeReason, transaction: UnitOfWork): Promise<unknown> {
    return this.db.sequelize.query(
      `UPDATE refresh_token_families SET revoked_at = now(), revoked_reason = $2 WHERE id = $1`,
      { bind: [familyId, reason], transaction },
    );
  }

  private async insertToken(familyId: string, token: StoredToken, transaction?: UnitOfWork): Promise<void> {
    await this.db.sequelize.query(
      `INSERT INTO refresh_tokens (token_hash, family_id, expires_at) VALUES (decode($1, 'hex'), $2, $3)`,
      { bind: [token.hash, familyId, token.expiresAt], transaction },
    );
  }
}
