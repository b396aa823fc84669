import { QueryTypes, type Transaction } from 'sequelize';
import type { Database } from '@wms/platform';
import { References, type ItemRef, type PartnerRef, type WarehouseRef } from './references.js';

/** Resolves natural keys (warehouseCode, partner code, sku) to rows of the tenant in one round trip. */
export class ReferenceRepository {
  constructor(private readonly db: Database) {}

  async resolve(
    tenantId: string,
    wanted: { warehouseCodes?: string[]; partnerCodes?: string[]; skus?: string[] },
    transaction?: Transaction,
  ): Promise<References> {
    const rows = await this.db.sequelize.query<
      { kind: 'w'; ref: WarehouseRef } | { kind: 'p'; ref: PartnerRef } | { kind: 'i'; ref: ItemRef }
    >(
      `SELECT 'w' AS kind, json_build_object('id', id, 'code', code) AS ref
         FROM warehouses WHERE tenant_id = $1 AND code = ANY($2::text[])
       UNION ALL
       SELECT 'p', json_build_object('id', id, 'code', code, 'type', type)
         FROM partners WHERE tenant_id = $1 AND code = ANY($3::text[])
       UNION ALL
       SELECT 'i', json_build_object('id', id, 'sku', sku, 'name', name, 'baseUomCode', base_uom_code, 'tracking', tracking)
         FROM items WHERE tenant_id = $1 AND sku = ANY($4::text[])`,
      {
        bind: [tenantId, unique(wanted.warehouseCodes), unique(wanted.partnerCodes), unique(wanted.skus)],
        type: QueryTypes.SELECT,
        transaction,
      },
    );
    const warehouses = new Map<string, WarehouseRef>();
    const partners = new Map<string, PartnerRef>();
    const items = new Map<string, ItemRef>();
    for (const row of rows) {
      if (row.kind === 'w') warehouses.set(row.ref.code, row.ref);
      else if (row.kind === 'p') partners.set(row.ref.code, row.ref);
      else items.set(row.ref.sku, row.ref);
    }
    return new References(warehouses, partners, items);
  }

  /** Location ids by code within one warehouse. */
  async locationIds(warehouseId: string, codes: string[], transaction?: Transaction): Promise<Map<string, string>> {
    const rows = await this.db.sequelize.query<{ id: string; code: string }>(
      'SELECT id, code FROM locations WHERE warehouse_id = $1 AND code = ANY($2::text[])',
      { bind: [warehouseId, unique(codes)], type: QueryTypes.SELECT, transaction },
    );
    return new Map(rows.map((row) => [row.code, row.id]));
  }
}

function unique(values: string[] = []): string[] {
  return [...new Set(values)];
}
