import type { Transaction } from 'sequelize';
import type { Database } from '@wms/platform';
import { warehouseModel, type WarehouseAttributes } from './warehouse.model.js';

/** The warehouses table, and the locations every warehouse is born with. */
export class WarehousesRepository {
  constructor(private readonly db: Database) {}

  /** Inserts the warehouse; null when the tenant has one of this code already. */
  async insert(
    input: { tenantId: string; code: string; name: string },
    transaction: Transaction,
  ): Promise<WarehouseAttributes | null> {
    const [rows] = (await this.db.sequelize.query(
      `INSERT INTO warehouses (tenant_id, code, name) VALUES ($1, $2, $3)
       ON CONFLICT (tenant_id, code) DO NOTHING
       RETURNING id, tenant_id AS "tenantId", code, name, created_at AS "createdAt", updated_at AS "updatedAt"`,
      { bind: [input.tenantId, input.code, input.name], transaction },
    )) as [WarehouseAttributes[], unknown];
    return rows[0] ?? null;
  }

  /** Inserts the warehouse's receiving location (zone RECEIVING, type receiving) under `code`. */
  async insertReceivingLocation(
    location: { tenantId: string; warehouseId: string; code: string },
    transaction: Transaction,
  ): Promise<void> {
    await this.db.sequelize.query(
      `INSERT INTO locations (tenant_id, warehouse_id, code, zone, type) VALUES ($1, $2, $3, 'RECEIVING', 'receiving')`,
      { bind: [location.tenantId, location.warehouseId, location.code], transaction },
    );
  }

  /**
   * The tenant's warehouse of this code with its receiving location, each inserted when missing (several
   * processes may run this at once); an existing one is left as it is.
   */
  async ensureWithReceiving(
    input: { tenantId: string; code: string; name: string; receivingCode: string },
    transaction: Transaction,
  ): Promise<void> {
    await this.db.sequelize.query(
      `INSERT INTO warehouses (tenant_id, code, name) VALUES ($1, $2, $3) ON CONFLICT (tenant_id, code) DO NOTHING`,
      { bind: [input.tenantId, input.code, input.name], transaction },
    );
    await this.db.sequelize.query(
      `INSERT INTO locations (tenant_id, warehouse_id, code, zone, type)
       SELECT w.tenant_id, w.id, $3, 'RECEIVING', 'receiving' FROM warehouses w WHERE w.tenant_id = $1 AND w.code = $2
       ON CONFLICT (warehouse_id, code) DO NOTHING`,
      { bind: [input.tenantId, input.code, input.receivingCode], transaction },
    );
  }

  /** Every warehouse of the tenant by code; `tenantId` null: every tenant's. */
  async list(tenantId: string | null): Promise<WarehouseAttributes[]> {
    const rows = await warehouseModel(this.db).findAll({
      where: tenantId ? { tenantId } : {},
      order: [['code', 'ASC']],
      raw: true,
    });
    return rows as unknown as WarehouseAttributes[];
  }

  async findByCode(tenantId: string, code: string): Promise<WarehouseAttributes | null> {
    const row = await warehouseModel(this.db).findOne({ where: { tenantId, code }, raw: true });
    return row as unknown as WarehouseAttributes | null;
  }
}
