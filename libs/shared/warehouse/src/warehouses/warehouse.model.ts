import { DataTypes, type Model, type ModelStatic, type Sequelize, type Optional } from 'sequelize';
import { registerModel } from '@wms/platform';

export interface WarehouseAttributes {
  id: string;
  tenantId: string;
  code: string;
  name: string;
  createdAt: Date;
  updatedAt: Date;
}

export type WarehouseModel = ModelStatic<
  Model<WarehouseAttributes, Optional<WarehouseAttributes, 'id' | 'createdAt' | 'updatedAt'>>
>;

function defineWarehouseModel(sequelize: Sequelize): WarehouseModel {
  return sequelize.define(
    'Warehouse',
    {
      id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
      tenantId: { type: DataTypes.UUID, allowNull: false },
      code: { type: DataTypes.TEXT, allowNull: false },
      name: { type: DataTypes.TEXT, allowNull: false },
      createdAt: DataTypes.DATE,
      updatedAt: DataTypes.DATE,
    },
    { tableName: 'warehouses' },
  );
}

/** The model of a database, defined on first use. */
export const warehouseModel = registerModel(defineWarehouseModel);
