import type { Transaction } from 'sequelize';
import type { Database } from '@wms/platform';
import { Binds, routedRead } from '@wms/platform';
import { cursorColumn, toPage, type CursorPosition, type ListPage } from '@wms/platform';
import type { ApiKeyPrincipal, ApiKeyRecord } from './api-key.types.js';
import { RequestLogRepository, type RecentRequest, type RequestLogEntry } from './request-log.repository.js';

/** A key expiring within this many days is flagged `expiresSoon`. */
export const EXPIRY_WARNING_DAYS = 14;

export const API_KEY_COLUMNS = `
  id, name, description, scopes, tenant_id AS "tenantId", expires_at AS "expiresAt",
  ip_whitelist AS "ipWhitelist", allowed_origins AS "allowedOrigins",
  rate_limit_per_minute AS "rateLimitPerMinute", active, key_prefix AS "keyPrefix",
  created_at AS "createdAt", last_used_at AS "lastUsedAt",
  (expires_at > now() AND expires_at <= now() + interval '${EXPIRY_WARNING_DAYS} days') IS TRUE AS "expiresSoon",
  rolled_at AS "rolledAt", api_version AS "apiVersion",
  CASE WHEN previous_key_expires_at > now() THEN json_build_object(
    'keyPrefix', previous_key_prefix,
    'expiresAt', to_char(previous_key_expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) END AS "previousKey"`;

/** Fields an edit may change, with their columns; arrays bind as text[] parameters. */
const EDITABLE_COLUMNS = {
  name: 'name',
  description: 'description',
  scopes: 'scopes',
  expiresAt: 'expires_at',
  ipWhitelist: 'ip_whitelist',
  allowedOrigins: 'allowed_origins',
  rateLimitPerMinute: 'rate_limit_per_minute',
  active: 'active',
  apiVersion: 'api_version',
} as const;
export type EditableField = keyof typeof EDITABLE_COLUMNS;
const ARRAY_FIELDS = new Set<EditableField>(['scopes', 'ipWhitelist', 'allowedOrigins']);

export interface ApiKeyStats {
  requests7d: number;
  requests24h: number;
  errorRate: number;
  avgResponseTimeMs: number;
  /** Calls refused by the rate limit (429) over the 7 days, and over the last 24 hours. */
  rateLimited: number;
  rateLimited24h: number;
  /** Calls refused by the IP whitelist or allowed origins (403) over the 7 days, and over the last 24 hours. */
  refused: number;
  refused24h: number;
  /** Answered calls over the 7 days by the dated API version that served them. */
  requestsByVersion: Record<string, number>;
  recentRequests: RecentRequest[];
}

export class ApiKeysRepository {
  /** The keys' request log and its hourly rollups. */
  readonly requestLogs: RequestLogRepository;

  constructor(private readonly db: Database) {
    this.requestLogs = new RequestLogRepository(db);
  }

  async insert(
    row: Omit<
      ApiKeyRecord,
      'id' | 'createdAt' | 'lastUsedAt' | 'active' | 'expiresSoon' | 'rolledAt' | 'previousKey'
    > & {
      keyHash: string;
      createdBy: string | null;
    },
    transaction?: Transaction,
  ): Promise<ApiKeyRecord> {
    const [rows] = (await this.db.sequelize.query(
      `INSERT INTO api_keys (name, description, scopes, tenant_id, expires_at, ip_whitelist, allowed_origins,
                             rate_limit_per_minute, key_hash, key_prefix, created_by, api_version)
       VALUES ($1, $2, $3::text[], $4, $5, $6::text[], $7::text[], $8, $9, $10, $11, $12)
       RETURNING ${API_KEY_COLUMNS}`,
      {
        bind: [
          row.name,
          row.description,
          row.scopes,
          row.tenantId,
          row.expiresAt,
          row.ipWhitelist,
          row.allowedOrigins,
          row.rateLimitPerMinute,
          row.keyHash,
          row.keyPrefix,
          row.createdBy,
          row.apiVersion,
        ],
        transaction,
      },
    )) as [ApiKeyRecord[], unknown];
    return rows[0]!;
  }

  /**
   * The guard's look-up: one indexed read by hash. The raw key before a roll matches too while its grace
   * period lasts; the principal then expires when the grace ends (or the key does, if earlier).
   */
  async findPrincipalByHash(keyHash: string): Promise<ApiKeyPrincipal | null> {
    const [rows] = (await this.db.sequelize.query(
      `SELECT id, name, tenant_id AS "tenantId", scopes, expires_at AS "expiresAt", active,
              ip_whitelist AS "ipWhitelist", allowed_origins AS "allowedOrigins",
              rate_limit_per_minute AS "rateLimitPerMinute", api_version AS "apiVersion"
         FROM api_keys WHERE key_hash = $1
       UNION ALL
       SELECT id, name, tenant_id, scopes, least(expires_at, previous_key_expires_at), active,
              ip_whitelist, allowed_origins, rate_limit_per_minute, api_version
         FROM api_keys WHERE previous_key_hash = $1 AND previous_key_expires_at > now()
       LIMIT 1`,
      { bind: [keyHash] },
    )) as [ApiKeyPrincipal[], unknown];
    return rows[0] ?? null;
  }

  /**
   * Gives the key a new raw key. With a grace period the current raw key becomes the previous one until
   * it ends (a previous key still in its grace is dropped); without one it stops at once.
   */
  async roll(
    id: string,
    next: { keyHash: string; keyPrefix: string },
    graceSeconds: number,
    transaction: Transaction,
  ): Promise<ApiKeyRecord> {
    const [rows] = (await this.db.sequelize.query(
      `UPDATE api_keys
          SET previous_key_hash = CASE WHEN $2::float8 > 0 THEN key_hash END,
              previous_key_prefix = CASE WHEN $2::float8 > 0 THEN key_prefix END,
              previous_key_expires_at = CASE WHEN $2::float8 > 0 THEN now() + make_interval(secs => $2::float8) END,
              key_hash = $3, key_prefix = $4, rolled_at = now(), updated_at = now()
        WHERE id = $1
        RETURNING ${API_KEY_COLUMNS}`,
      { bind: [id, graceSeconds, next.keyHash, next.keyPrefix], transaction },
    )) as [ApiKeyRecord[], unknown];
    return rows[0]!;
  }

  /** Ends the previous raw key's grace period now; false when there was none. */
  async revokePrevious(id: string, transaction: Transaction): Promise<boolean> {
    const [rows] = (await this.db.sequelize.query(
      `UPDATE api_keys SET previous_key_hash = NULL, previous_key_prefix = NULL, previous_key_expires_at = NULL,
              updated_at = now()
        WHERE id = $1 AND previous_key_hash IS NOT NULL AND previous_key_expires_at > now()
        RETURNING id`,
      { bind: [id], transaction },
    )) as [unknown[], unknown];
    return rows.length > 0;
  }

  /**
   * `tenantId` null lists every tenant's keys. Newest first, `limit` a page after `cursor` (the previous page's
   * last key). `expiringWithinSeconds` keeps the keys that have not expired yet but will within that time, or
   * whose previous raw key's grace ends within it.
   */
  async page(query: {
    tenantId: string | null;
    expiringWithinSeconds: number | null;
    limit: number;
    cursor?: CursorPosition;
  }): Promise<ListPage<ApiKeyRecord>> {
    const [rows] = (await routedRead(this.db, (from) =>
      from.sequelize.query(
        `SELECT ${API_KEY_COLUMNS},
              ${cursorColumn('created_at', 'id')}
         FROM api_keys
        WHERE ($1::uuid IS NULL OR tenant_id = $1)
          AND ($2::integer IS NULL
               OR (expires_at > now() AND expires_at <= now() + make_interval(secs => $2))
               OR (previous_key_expires_at > now() AND previous_key_expires_at <= now() + make_interval(secs => $2)))
          AND ($3::timestamptz IS NULL OR (created_at, id) < ($3::timestamptz, $4::uuid))
        ORDER BY created_at DESC, id DESC
        LIMIT $5`,
        {
          bind: [
            query.tenantId,
            query.expiringWithinSeconds,
            query.cursor?.updatedAt ?? null,
            query.cursor?.id ?? null,
            query.limit + 1,
          ],
        },
      ),
    )) as [Array<ApiKeyRecord & { cursor: CursorPosition }>, unknown];
    return toPage(rows, query.limit);
  }

  /** The key, locked for the rest of `transaction` when one is given. */
  async findById(id: string, transaction?: Transaction): Promise<ApiKeyRecord | null> {
    const [rows] = (await this.db.sequelize.query(
      `SELECT ${API_KEY_COLUMNS} FROM api_keys WHERE id = $1${transaction ? ' FOR UPDATE' : ''}`,
      { bind: [id], transaction },
    )) as [ApiKeyRecord[], unknown];
    return rows[0] ?? null;
  }

  async update(
    id: string,
    changes: Partial<Pick<ApiKeyRecord, EditableField>>,
    transaction?: Transaction,
  ): Promise<ApiKeyRecord> {
    const binds = new Binds();
    const where = `id = ${binds.add(id)}`;
    const assignments = (Object.keys(changes) as EditableField[]).map(
      (field) =>
        `${EDITABLE_COLUMNS[field]} = ${binds.add(changes[field])}${ARRAY_FIELDS.has(field) ? '::text[]' : ''}`,
    );
    const [rows] = (await this.db.sequelize.query(
      `UPDATE api_keys SET ${[...assignments, 'updated_at = now()'].join(', ')} WHERE ${where} RETURNING ${API_KEY_COLUMNS}`,
      { bind: binds.values, transaction },
    )) as [ApiKeyRecord[], unknown];
    return rows[0]!;
  }

  /** How many keys are active and not expired, of one tenant or (null) of all. */
  async countActive(tenantId: string | null): Promise<number> {
    const [rows] = (await this.db.sequelize.query(
      `SELECT count(*)::int AS "activeKeys" FROM api_keys k
        WHERE k.active AND (k.expires_at IS NULL OR k.expires_at > now())
          AND ($1::uuid IS NULL OR k.tenant_id = $1::uuid)`,
      { bind: [tenantId] },
    )) as [Array<{ activeKeys: number }>, unknown];
    return rows[0]!.activeKeys;
  }

  /** Appends request-log records (and adds them to the hourly rollups). */
  async insertRequestLogs(entries: RequestLogEntry[]): Promise<void> {
    await this.requestLogs.insert(entries);
  }

  /**
   * Sets lastUsedAt of the given keys, skipping any a replica already touched within the last minute,
   * so each key's row is written at most once a minute however many gateways serve it.
   */
  async touchLastUsed(usage: Array<{ id: string; at: Date }>): Promise<void> {
    if (usage.length === 0) return;
    await this.db.sequelize.query(
      `UPDATE api_keys AS k SET last_used_at = u.at
         FROM unnest($1::uuid[], $2::timestamptz[]) AS u(id, at)
        WHERE k.id = u.id AND (k.last_used_at IS NULL OR k.last_used_at < u.at - interval '1 minute')`,
      {
        bind: [usage.map((entry) => entry.id), usage.map((entry) => entry.at.toISOString())],
      },
    );
  }
}
