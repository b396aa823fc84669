import type { Sequelize } from 'sequelize';
import { defineTenantModel } from '../tenants/tenant.model.js';
import { defineUserModel } from '../users/user.model.js';
import { defineWarehouseModel } from '../warehouses/warehouse.model.js';
import { defineAuditLogModel } from '../audit/audit-log.model.js';

/** Models are defined per Sequelize instance (no global registry), so several databases can live in one process. */
export function defineModels(sequelize: Sequelize) {
  return {
    Tenant: defineTenantModel(sequelize),
    User: defineUserModel(sequelize),
    Warehouse: defineWarehouseModel(sequelize),
    AuditLog: defineAuditLogModel(sequelize),
  };
}

export type Models = ReturnType<typeof defineModels>;

export interface Database {
  sequelize: Sequelize;
  models: Models;
}
