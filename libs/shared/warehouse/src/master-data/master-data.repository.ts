import { QueryTypes, type Transaction } from 'sequelize';
import type { StatementContext } from '../writes/index.js';
import type { Database } from '@wms/platform';
import type { ItemInput, LocationInput, PartnerInput } from './master-data.schemas.js';

export interface UpsertedRow {
  id: string;
  key: string;
  created: boolean;
}

/**
 * Set-based writes of master data: one multi-row INSERT … ON CONFLICT … DO UPDATE per batch, rows fed as
 * one JSON parameter and sorted by key so concurrent batches lock rows in the same order (no deadlock).
 * The batch must not repeat a key (the service merges repeats first).
 */
export class MasterDataRepository {
  constructor(private readonly db: Database) {}

  async upsertItems(context: StatementContext, items: ItemInput[]): Promise<UpsertedRow[]> {
    return this.run(
      (
        onlyIf,
      ) => `INSERT INTO items AS t (tenant_id, sku, name, barcode, base_uom_code, category, tracking, shelf_life_days, weight_kg)
       SELECT $1::uuid, r.sku, r.name, r.barcode, r."baseUomCode", r.category, r.tracking, r."shelfLifeDays", r."weightKg"
       FROM json_to_recordset($2::json) AS r(sku text, name text, barcode text, "baseUomCode" text, category text,
                                              tracking text, "shelfLifeDays" integer, "weightKg" numeric)
       ${onlyIf}
       ORDER BY r.sku
       ON CONFLICT (tenant_id, sku) DO UPDATE SET
         name = EXCLUDED.name, barcode = EXCLUDED.barcode, base_uom_code = EXCLUDED.base_uom_code,
         category = EXCLUDED.category, tracking = EXCLUDED.tracking, shelf_life_days = EXCLUDED.shelf_life_days,
         weight_kg = EXCLUDED.weight_kg, updated_at = now()
       RETURNING id, sku AS key, (xmax = 0) AS created`,
      [context.tenantId, JSON.stringify(items)],
      context,
    );
  }

  async upsertPartners(context: StatementContext, partners: PartnerInput[]): Promise<UpsertedRow[]> {
    const rows = partners.map((partner) => ({ ...partner, contact: partner.contact ?? {} }));
    return this.run(
      (onlyIf) => `INSERT INTO partners AS t (tenant_id, code, name, type, contact)
       SELECT $1::uuid, r.code, r.name, r.type, r.contact
       FROM json_to_recordset($2::json) AS r(code text, name text, type text, contact jsonb)
       ${onlyIf}
       ORDER BY r.code
       ON CONFLICT (tenant_id, code) DO UPDATE SET
         name = EXCLUDED.name, type = EXCLUDED.type, contact = EXCLUDED.contact, updated_at = now()
       RETURNING id, code AS key, (xmax = 0) AS created`,
      [context.tenantId, JSON.stringify(rows)],
      context,
    );
  }

  /** Rows carry the warehouse id already resolved in the tenant; the key returned is `<warehouseId>/<code>`. */
  async upsertLocations(
    context: StatementContext,
    locations: (LocationInput & { warehouseId: string })[],
  ): Promise<UpsertedRow[]> {
    return this.run(
      (onlyIf) => `INSERT INTO locations AS t (tenant_id, warehouse_id, code, zone, type, pick_face)
       SELECT $1::uuid, r."warehouseId", r.code, r.zone, r.type, r."pickFace"
       FROM json_to_recordset($2::json) AS r("warehouseId" uuid, code text, zone text, type text, "pickFace" boolean)
       ${onlyIf}
       ORDER BY r."warehouseId", r.code
       ON CONFLICT (warehouse_id, code) DO UPDATE SET
         zone = EXCLUDED.zone, type = EXCLUDED.type, pick_face = EXCLUDED.pick_face, updated_at = now()
       RETURNING id, warehouse_id || '/' || code AS key, (xmax = 0) AS created`,
      [context.tenantId, JSON.stringify(locations)],
      context,
    );
  }

  /** Warehouse ids by code, within the tenant only: another tenant's warehouse is not found. */
  async warehouseIdsByCode(tenantId: string, codes: string[], transaction?: Transaction): Promise<Map<string, string>> {
    const rows = await this.db.sequelize.query<{ id: string; code: string }>(
      'SELECT id, code FROM warehouses WHERE tenant_id = $1 AND code = ANY($2::text[])',
      { bind: [tenantId, codes], type: QueryTypes.SELECT, transaction },
    );
    return new Map(rows.map((row) => [row.code, row.id]));
  }

  /** Runs an upsert, through the context's guard when it writes a stored bulk job. */
  private async run(
    sqlOf: (onlyIf: string) => string,
    bind: unknown[],
    { transaction, guard }: StatementContext,
  ): Promise<UpsertedRow[]> {
    if (guard) return guard.run<UpsertedRow>(sqlOf, bind);
    return this.db.sequelize.query<UpsertedRow>(sqlOf(''), { bind, type: QueryTypes.SELECT, transaction });
  }
}
