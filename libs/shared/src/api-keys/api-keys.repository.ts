import type { Transaction } from 'sequelize';
import type { Database } from '../db/models.js';
import type { ApiKeyPrincipal, ApiKeyRecord } from './api-key.types.js';

export const API_KEY_COLUMNS = `
  id, name, description, scopes, tenant_id AS "tenantId", expires_at AS "expiresAt",
  ip_whitelist AS "ipWhitelist", allowed_origins AS "allowedOrigins",
  rate_limit_per_minute AS "rateLimitPerMinute", active, key_prefix AS "keyPrefix",
  created_at AS "createdAt", last_used_at AS "lastUsedAt"`;

export class ApiKeysRepository {
  constructor(private readonly db: Database) {}

  async insert(
    row: Omit<ApiKeyRecord, 'id' | 'createdAt' | 'lastUsedAt' | 'active'> & { keyHash: string; createdBy: string | null },
    transaction?: Transaction,
  ): Promise<ApiKeyRecord> {
    const [rows] = (await this.db.sequelize.query(
      `INSERT INTO api_keys (name, description, scopes, tenant_id, expires_at, ip_whitelist, allowed_origins,
                             rate_limit_per_minute, key_hash, key_prefix, created_by)
       VALUES (:name, :description, :scopes::text[], :tenantId, :expiresAt, :ipWhitelist::text[], :allowedOrigins::text[],
               :rateLimitPerMinute, :keyHash, :keyPrefix, :createdBy)
       RETURNING ${API_KEY_COLUMNS}`,
      {
        replacements: {
          ...row,
          scopes: toArrayLiteral(row.scopes),
          ipWhitelist: toArrayLiteral(row.ipWhitelist),
          allowedOrigins: toArrayLiteral(row.allowedOrigins),
        },
        transaction,
      },
    )) as [ApiKeyRecord[], unknown];
    return rows[0]!;
  }

  /** The guard's look-up: one indexed read by hash. */
  async findPrincipalByHash(keyHash: string): Promise<ApiKeyPrincipal | null> {
    const [rows] = (await this.db.sequelize.query(
      `SELECT id, name, tenant_id AS "tenantId", scopes, expires_at AS "expiresAt", active,
              ip_whitelist AS "ipWhitelist", allowed_origins AS "allowedOrigins",
              rate_limit_per_minute AS "rateLimitPerMinute"
         FROM api_keys WHERE key_hash = :keyHash`,
      { replacements: { keyHash } },
    )) as [ApiKeyPrincipal[], unknown];
    return rows[0] ?? null;
  }
}

/** A PostgreSQL array literal, so an empty list binds as '{}' rather than an invalid ARRAY[]. */
export function toArrayLiteral(values: string[]): string {
  return `{${values.map((value) => `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`).join(',')}}`;
}
