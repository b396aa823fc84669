import type { Database } from '@wms/platform';
import { AppError, unitOfWork } from '@wms/platform';
import type { WarehouseAttributes } from './warehouse.model.js';
import { WarehousesRepository } from './warehouses.repository.js';

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
  private readonly repository: WarehousesRepository;

  constructor(private readonly db: Database) {
    this.repository = new WarehousesRepository(db);
  }

  /** Creates the warehouse and its RECEIVING location in one transaction. */
  async create(input: { tenantId: string; code: string; name: string }): Promise<Warehouse> {
    return unitOfWork(this.db, async (transaction) => {
      const row = await this.repository.insert(input, transaction);
      if (!row) throw AppError.conflict('WAREHOUSE_EXISTS', `Warehouse code ${input.code} already exists`);
      await this.repository.insertReceivingLocation(
        { tenantId: input.tenantId, warehouseId: row.id, code: RECEIVING_LOCATION_CODE },
        transaction,
      );
      return toWarehouse(row);
    });
  }

  /** Lists warehouses; `tenantId` null lists every tenant's (cross-tenant users only). */
  async list(tenantId: string | null): Promise<Warehouse[]> {
    return (await this.repository.list(tenantId)).map(toWarehouse);
  }

  async findByCode(tenantId: string, code: string): Promise<Warehouse | null> {
    const row = await this.repository.findByCode(tenantId, code);
    return row ? toWarehouse(row) : null;
  }
}
