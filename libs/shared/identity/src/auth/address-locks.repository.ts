import { createHash } from 'node:crypto';
import { QueryTypes } from 'sequelize';
import type { Database } from '@wms/platform';

/**
 * How long an address that names no account is remembered after its last failed sign-in. Bounds the table
 * (one row per address tried, deleted by the retention sweep); an account's own count never expires, so
 * failures spaced further apart than this would tell the two apart (docs/adr/0012).
 */
export const ADDRESS_MEMORY_DAYS = 30;

/** The key of an address: its digest, never the text (which may be a password typed in the wrong field). */
export function addressDigest(normalizedEmail: string): Buffer {
  return createHash('sha256').update(normalizedEmail).digest();
}

/** A lock that runs: set, and younger than `lockSeconds` ($2) unless locks last until lifted (0). */
const lockRuns = (lockedAt: string) =>
  `${lockedAt} IS NOT NULL AND ($2::int <= 0 OR ${lockedAt} > now() - make_interval(secs => $2::int))`;

/**
 * Failed sign-ins of e-mails without an account (`login_address_locks`), locked and lifted by the rules of an
 * account's: `max` consecutive failures lock, a lock older than `lockSeconds` (when set) starts the count over.
 */
export class AddressLocksRepository {
  constructor(private readonly db: Database) {}

  async isLocked(digest: Buffer, lockSeconds: number): Promise<boolean> {
    const rows = await this.db.sequelize.query(
      `SELECT 1 FROM login_address_locks WHERE address_digest = $1 AND ${lockRuns('locked_at')}`,
      { bind: [digest, lockSeconds], type: QueryTypes.SELECT },
    );
    return rows.length > 0;
  }

  /** One more failure; the max-th locks. A lock that has run out starts the count over at this failure. */
  async recordFailure(digest: Buffer, lockSeconds: number, max: number): Promise<void> {
    await this.db.sequelize.query(
      `INSERT INTO login_address_locks AS l (address_digest, failed_count, locked_at, updated_at)
       VALUES ($1, 1, CASE WHEN $3 <= 1 THEN now() END, now())
       ON CONFLICT (address_digest) DO UPDATE SET
         failed_count = CASE WHEN l.locked_at IS NULL THEN l.failed_count + 1
                             WHEN NOT (${lockRuns('l.locked_at')}) THEN 1
                             ELSE l.failed_count END,
         locked_at = CASE WHEN l.locked_at IS NULL THEN CASE WHEN l.failed_count + 1 >= $3 THEN now() END
                          WHEN NOT (${lockRuns('l.locked_at')}) THEN CASE WHEN $3 <= 1 THEN now() END
                          ELSE l.locked_at END,
         updated_at = now()`,
      { bind: [digest, lockSeconds, max], type: QueryTypes.INSERT },
    );
  }

  /** Deletes up to `limit` addresses untouched for ADDRESS_MEMORY_DAYS; answers how many. */
  async purgeForgotten(limit: number): Promise<number> {
    const [rows] = (await this.db.sequelize.query(
      `DELETE FROM login_address_locks WHERE address_digest IN (
         SELECT address_digest FROM login_address_locks WHERE updated_at < now() - make_interval(days => $1)
          ORDER BY updated_at LIMIT $2 FOR UPDATE SKIP LOCKED)
       RETURNING 1`,
      { bind: [ADDRESS_MEMORY_DAYS, limit] },
    )) as [unknown[], unknown];
    return rows.length;
  }
}
