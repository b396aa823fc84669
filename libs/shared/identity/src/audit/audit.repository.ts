import type { Transaction } from 'sequelize';
import { containsPattern, cursorColumn, routedRead, type Database } from '@wms/platform';
import type { CursorPosition } from '@wms/platform';
import { auditLogModel } from './audit-log.model.js';

export interface AuditEntry {
  id: string;
  tenantId: string | null;
  action: string;
  entityType: string;
  entityId: string;
  actorUserId: string | null;
  /** The actor's e-mail as it is now; null when there is no actor (a system change). */
  actorEmail: string | null;
  changes: Record<string, unknown>;
  createdAt: Date;
}

export interface AuditRecordInput {
  action: string;
  entityType: string;
  entityId: string;
  tenantId: string | null;
  actorUserId: string | null;
  changes: Record<string, unknown>;
}

export interface AuditQuery {
  entityType?: string;
  entityId?: string;
  action?: string;
  actorUserId?: string;
  /** Part of the actor's e-mail, any case. */
  actorEmail?: string;
  /** Entries written at or after this instant. */
  from?: Date;
  /** Entries written before this instant. */
  to?: Date;
  /** Null for a cross-tenant reader: every tenant's entries and those of no tenant. */
  tenantId: string | null;
  limit: number;
  /** Where the previous page stopped (the last entry's time and id). */
  cursor?: CursorPosition;
}

/** The audit_logs table. */
export class AuditRepository {
  constructor(private readonly db: Database) {}

  async insert(input: AuditRecordInput, transaction?: Transaction): Promise<void> {
    await auditLogModel(this.db).create(input, { transaction });
  }

  /** Deletes at most `limit` entries older than `days`, oldest first, skipping rows a writer holds. */
  async purgeOlderThan(days: number, limit: number): Promise<number> {
    const [rows] = (await this.db.sequelize.query(
      `DELETE FROM audit_logs WHERE id IN (
         SELECT id FROM audit_logs WHERE created_at < now() - make_interval(days => $1)
          ORDER BY created_at LIMIT $2 FOR UPDATE SKIP LOCKED)
       RETURNING id`,
      { bind: [days, limit] },
    )) as [unknown[], unknown];
    return rows.length;
  }

  /** Newest first, up to `limit` entries, each with its cursor position. */
  async list(query: AuditQuery, limit: number): Promise<Array<AuditEntry & { cursor: CursorPosition }>> {
    const [rows] = (await routedRead(this.db, (from) =>
      from.sequelize.query(
        `SELECT a.id, a.tenant_id AS "tenantId", a.action, a.entity_type AS "entityType", a.entity_id AS "entityId",
              a.actor_user_id AS "actorUserId", u.email AS "actorEmail", a.changes, a.created_at AS "createdAt",
              ${cursorColumn('a.created_at', 'a.id')}
         FROM audit_logs a LEFT JOIN users u ON u.id = a.actor_user_id
        WHERE ($1::text IS NULL OR a.entity_type = $1)
          AND ($2::text IS NULL OR a.entity_id = $2)
          AND ($3::text IS NULL OR a.action = $3)
          AND ($4::uuid IS NULL OR a.actor_user_id = $4)
          AND ($5::text IS NULL OR u.email ILIKE $5)
          AND ($6::timestamptz IS NULL OR a.created_at >= $6)
          AND ($7::timestamptz IS NULL OR a.created_at < $7)
          AND ($8::uuid IS NULL OR a.tenant_id = $8)
          AND ($9::timestamptz IS NULL OR (a.created_at, a.id) < ($9::timestamptz, $10::uuid))
        ORDER BY a.created_at DESC, a.id DESC
        LIMIT $11`,
        {
          bind: [
            query.entityType ?? null,
            query.entityId ?? null,
            query.action ?? null,
            query.actorUserId ?? null,
            query.actorEmail === undefined ? null : containsPattern(query.actorEmail),
            query.from ?? null,
            query.to ?? null,
            query.tenantId ?? null,
            query.cursor?.updatedAt ?? null,
            query.cursor?.id ?? null,
            limit,
          ],
        },
      ),
    )) as [Array<AuditEntry & { cursor: CursorPosition }>, unknown];
    return rows;
  }
}
