import { DataTypes, type Model, type ModelStatic, type Sequelize, type Optional } from 'sequelize';
import { registerModel } from '@wms/platform';

export interface AuditLogAttributes {
  id: string;
  tenantId: string | null;
  action: string;
  entityType: string;
  entityId: string;
  actorUserId: string | null;
  changes: Record<string, unknown>;
  createdAt: Date;
}

export type AuditLogModel = ModelStatic<
  Model<AuditLogAttributes, Optional<AuditLogAttributes, 'id' | 'createdAt' | 'tenantId' | 'actorUserId' | 'changes'>>
>;

function defineAuditLogModel(sequelize: Sequelize): AuditLogModel {
  return sequelize.define(
    'AuditLog',
    {
      id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
      tenantId: { type: DataTypes.UUID, allowNull: true },
      action: { type: DataTypes.TEXT, allowNull: false },
      entityType: { type: DataTypes.TEXT, allowNull: false },
      entityId: { type: DataTypes.TEXT, allowNull: false },
      actorUserId: { type: DataTypes.UUID, allowNull: true },
      changes: { type: DataTypes.JSONB, allowNull: false, defaultValue: {} },
      createdAt: DataTypes.DATE,
    },
    { tableName: 'audit_logs', updatedAt: false },
  );
}

/** The model of a database, defined on first use. */
export const auditLogModel = registerModel(defineAuditLogModel);
