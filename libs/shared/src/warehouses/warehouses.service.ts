import type { Database } from '../db/index.js';
import { AppError } from '../errors/index.js';
import { warehouseModel, type WarehouseAttributes } from './warehouse.model.js';

export interface Warehouse {
  id: string;
  tenantId: string;
  code: string;
  name: string;
  createdAt: Date;
}

/** Every warehouse has this location; GRN lines without a locationCode land in it. */
export const RECEIVING_LOCATION_CODE = 'RECEIVING';

/** The warehouse the seed routine creates in the default tenant. */
export const DEFAULT_WAREHOUSE_CODE = 'MAIN';

function toWarehouse(row: WarehouseAttributes): Warehouse {
  return { id: row.id, tenantId: row.tenantId, code: row.code, name: row.name, createdAt: row.createdAt };
}

export class WarehousesService {
  constructor(private readonly db: Database) {}

  /** Creates the warehouse and its RECEIVING location in one transaction. */
  async create(input: { tenantId: string; code: string; name: string }): Promise<Warehouse> {
    const { sequelize } = this.db;
    return sequelize.transaction(async (transaction) => {
      const [rows] = (await sequelize.query(
        `INSERT INTO warehouses (tenant_id, code, name) VALUES (:tenantId, :code, :name)
         ON CONFLICT (tenant_id, code) DO NOTHING
         RETURNING id, tenant_id AS "tenantId", code, name, created_at AS "createdAt", updated_at AS "updatedAt"`,
        { replacements: input, transaction },
      )) as [WarehouseAttributes[], unknown];
      const row = rows[0];
      if (!row) throw AppError.conflict('WAREHOUSE_EXISTS', `Warehouse code ${input.code} already exists`);
      await sequelize.query(
        `INSERT INTO locations (tenant_id, warehouse_id, code, zone, type) VALUES (:tenantId, :warehouseId, :code, 'RECEIVING', 'receiving')`,
        { replacements: { tenantId: input.tenantId, warehouseId: row.id, code: RECEIVING_LOCATION_CODE }, transaction },
      );
      return toWarehouse(row);
    });
  }

  /** Lists warehouses; `tenantId` null lists every tenant's (cross-tenant users only). */
  async list(tenantId: string | null): Promise<Warehouse[]> {
    const rows = await warehouseModel(this.db).findAll({
      where: tenantId ? { tenantId } : {},
      order: [['code', 'ASC']],
      raw: true,
    });
    return rows.map((row) => toWarehouse(row as unknown as WarehouseAttributes));
  }

  async findByCode(tenantId: string, code: string): Promise<Warehouse | null> {
    const row = await warehouseModel(this.db).findOne({ where: { tenantId, code }, raw: true });
    return row ? toWarehouse(row as unknown as WarehouseAttributes) : null;
  }
}
