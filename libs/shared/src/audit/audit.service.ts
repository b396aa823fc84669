import type { Transaction } from 'sequelize';
import type { Database } from '../db/models.js';
import type { AuditLogAttributes } from './audit-log.model.js';

export interface AuditEntry {
  id: string;
  action: string;
  entityType: string;
  entityId: string;
  actorUserId: string | null;
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
  /** Null for a cross-tenant reader: every tenant's entries and those of no tenant. */
  tenantId: string | null;
  limit: number;
}

function toEntry(row: AuditLogAttributes): AuditEntry {
  return {
    id: row.id,
    action: row.action,
    entityType: row.entityType,
    entityId: row.entityId,
    actorUserId: row.actorUserId,
    changes: row.changes,
    createdAt: row.createdAt,
  };
}

/** Who changed what, written in the same transaction as the change it describes. */
export class AuditService {
  constructor(private readonly db: Database) {}

  async record(input: AuditRecordInput, transaction?: Transaction): Promise<void> {
    await this.db.models.AuditLog.create(input, { transaction });
  }

  /** Newest first. */
  async list(query: AuditQuery): Promise<AuditEntry[]> {
    const where: Record<string, unknown> = {};
    if (query.entityType) where.entityType = query.entityType;
    if (query.entityId) where.entityId = query.entityId;
    if (query.tenantId) where.tenantId = query.tenantId;
    const rows = await this.db.models.AuditLog.findAll({ where, order: [['createdAt', 'DESC']], limit: query.limit, raw: true });
    return rows.map((row) => toEntry(row as unknown as AuditLogAttributes));
  }
}
