import { DataTypes, type Model, type ModelStatic, type Sequelize, type Optional } from 'sequelize';
import { registerModel } from '@wms/platform';

export interface TenantAttributes {
  id: string;
  code: string;
  name: string;
  sandbox: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export type TenantModel = ModelStatic<
  Model<TenantAttributes, Optional<TenantAttributes, 'id' | 'sandbox' | 'createdAt' | 'updatedAt'>>
>;

function defineTenantModel(sequelize: Sequelize): TenantModel {
  return sequelize.define(
    'Tenant',
    {
      id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
      code: { type: DataTypes.TEXT, allowNull: false },
      name: { type: DataTypes.TEXT, allowNull: false },
      sandbox: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      createdAt: DataTypes.DATE,
      updatedAt: DataTypes.DATE,
    },
    { tableName: 'tenants' },
  );
}

/** The model of a database, defined on first use. */
export const tenantModel = registerModel(defineTenantModel);
