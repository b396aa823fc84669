import { QueryTypes, type Transaction } from 'sequelize';
import type { Database } from '../db/index.js';

/** Whose key space an Idempotency-Key lives in: a system's API key, or a person (the operations endpoints). */
export type IdempotencyOwner = { apiKeyId: string } | { userId: string };

/** The owner's column and id; the column name comes from this fixed pair, never from input. */
function ownerColumn(owner: IdempotencyOwner): { column: 'api_key_id' | 'user_id'; id: string } {
  return 'apiKeyId' in owner ? { column: 'api_key_id', id: owner.apiKeyId } : { column: 'user_id', id: owner.userId };
}

export interface IdempotencyRecord {
  fingerprint: string;
  state: 'in_progress' | 'completed';
  live: boolean;
  leased: boolean;
  responseStatus: number | null;
  responseBody: string | null;
}

export interface NewClaim {
  key: string;
  fingerprint: string;
  /** The stored fingerprint known to mean this same request: an abandoned claim holding it may be taken over. */
  sameRequest: string;
  token: string;
  leaseMs: number;
  ttlSeconds: number;
}

/** The idempotency_records table: one row per owner and Idempotency-Key. */
export class IdempotencyRepository {
  constructor(private readonly db: Database) {}

  /**
   * Inserts a new claim, or takes over a record that expired (new generation) or whose holder's lease
   * ran out with the same request (same generation). Returns null when the key is held or answered.
   */
  async claim(owner: IdempotencyOwner, claim: NewClaim): Promise<{ id: string; claimId: string } | null> {
    const { column, id } = ownerColumn(owner);
    const rows = await this.db.sequelize.query<{ id: string; claimId: string }>(
      `INSERT INTO idempotency_records AS r
         (${column}, idempotency_key, fingerprint, state, claim_id, token, lease_until, expires_at)
       VALUES ($1, $2, $3, 'in_progress', gen_random_uuid(), $4,
               now() + $5 * interval '1 millisecond', now() + $6 * interval '1 second')
       ON CONFLICT (${column}, idempotency_key) DO UPDATE SET
         fingerprint = EXCLUDED.fingerprint,
         state = 'in_progress',
         claim_id = CASE WHEN r.expires_at <= now() THEN EXCLUDED.claim_id ELSE r.claim_id END,
         expires_at = CASE WHEN r.expires_at <= now() THEN EXCLUDED.expires_at ELSE r.expires_at END,
         token = EXCLUDED.token,
         lease_until = EXCLUDED.lease_until,
         response_status = NULL,
         response_body = NULL,
         updated_at = now()
       WHERE r.expires_at <= now()
          OR (r.state = 'in_progress' AND r.lease_until <= now() AND r.fingerprint = $7)
       RETURNING id, claim_id AS "claimId"`,
      {
        bind: [id, claim.key, claim.fingerprint, claim.token, claim.leaseMs, claim.ttlSeconds, claim.sameRequest],
        type: QueryTypes.SELECT,
      },
    );
    return rows[0] ?? null;
  }

  async find(owner: IdempotencyOwner, key: string): Promise<IdempotencyRecord | null> {
    const { column, id } = ownerColumn(owner);
    const rows = await this.db.sequelize.query<IdempotencyRecord>(
      `SELECT fingerprint, state, expires_at > now() AS live, lease_until > now() AS leased,
              response_status AS "responseStatus", response_body AS "responseBody"
       FROM idempotency_records WHERE ${column} = $1 AND idempotency_key = $2`,
      { bind: [id, key], type: QueryTypes.SELECT },
    );
    return rows[0] ?? null;
  }

  /** Stores the answer of a claim still held with this token; false when the claim was lost. */
  async complete(
    recordId: string,
    token: string,
    answer: { status: number; body: string },
    transaction?: Transaction,
  ): Promise<boolean> {
    const [, affected] = (await this.db.sequelize.query(
      `UPDATE idempotency_records SET state = 'completed', response_status = $3, response_body = $4, updated_at = now()
       WHERE id = $1 AND token = $2 AND state = 'in_progress'`,
      { bind: [recordId, token, answer.status, answer.body], type: QueryTypes.UPDATE, transaction },
    )) as [unknown, number];
    return affected === 1;
  }

  /** Deletes at most `limit` expired records, skipping rows a writer holds; answers how many. */
  async purgeExpired(limit: number): Promise<number> {
    const deleted = await this.db.sequelize.query(
      `DELETE FROM idempotency_records WHERE id IN (
         SELECT id FROM idempotency_records WHERE expires_at <= now() LIMIT $1 FOR UPDATE SKIP LOCKED)
       RETURNING id`,
      { bind: [limit], type: QueryTypes.SELECT },
    );
    return deleted.length;
  }

  /** Ends the lease of a claim still held with this token, keeping its generation. */
  async release(recordId: string, token: string): Promise<void> {
    await this.db.sequelize.query(
      `UPDATE idempotency_records SET lease_until = now(), updated_at = now() WHERE id = $1 AND token = $2 AND state = 'in_progress'`,
      { bind: [recordId, token], type: QueryTypes.UPDATE },
    );
  }
}
