import { QueryTypes } from 'sequelize';
import { routedRead, type Database, type QuantityFormat } from '@wms/platform';
import { dateSql } from './fields.js';
import { stockObjectSql } from './stock-inquiry.repository.js';

/**
 * The stock inquiry of many skus in one statement: $1 tenant id, $2 the skus in the order asked, $3 warehouse
 * code or null. Each item's object is the single inquiry's (`stockObjectSql`), over that item's rows only.
 */
const levelsSql = (format: QuantityFormat) => `WITH
      wanted AS (SELECT u.sku, u.ord FROM unnest($2::text[]) WITH ORDINALITY AS u(sku, ord)),
      item AS (SELECT i.id, i.sku, i.name, i.tracking, w.ord FROM wanted w JOIN items i ON i.tenant_id = $1 AND i.sku = w.sku),
      wh AS (SELECT id, code FROM warehouses WHERE tenant_id = $1 AND ($3::text IS NULL OR code = $3)),
      rows AS (
        SELECT s.item_id, w.code AS "warehouseCode", l.code AS "locationCode", NULLIF(s.lot_no, '') AS "lotNo",
               ${dateSql('s.expiry_date')} AS "expiryDate", s.qty_on_hand, s.qty_allocated
        FROM stock_rows s
        JOIN item i ON i.id = s.item_id
        JOIN wh w ON w.id = s.warehouse_id
        JOIN locations l ON l.id = s.location_id
        WHERE s.tenant_id = $1 AND s.qty_on_hand > 0)
 SELECT ($3::text IS NULL OR EXISTS (SELECT 1 FROM wh)) AS "warehouseKnown",
        ARRAY(SELECT w.sku FROM wanted w WHERE NOT EXISTS (SELECT 1 FROM item i WHERE i.sku = w.sku) ORDER BY w.ord) AS missing,
        (SELECT COALESCE(json_agg(${stockObjectSql('(SELECT * FROM rows WHERE rows.item_id = i.id)', format)} ORDER BY i.ord), '[]'::json)
         FROM item i)::text AS levels`;

const LEVELS_SQL: Record<QuantityFormat, string> = { number: levelsSql('number'), decimal: levelsSql('decimal') };

export interface StockLevelsRow {
  /** False when a warehouse code was given and the tenant has no such warehouse. */
  warehouseKnown: boolean;
  /** The skus asked that the tenant does not have, in the order asked. */
  missing: string[];
  /** The inquiries of the known skus, in the order asked, as JSON text. */
  levels: string;
}

export class StockLevelsRepository {
  constructor(private readonly db: Database) {}

  async levels(
    tenantId: string,
    skus: string[],
    warehouseCode: string | undefined,
    format: QuantityFormat,
  ): Promise<StockLevelsRow> {
    const [row] = await routedRead(this.db, (from) =>
      from.sequelize.query<StockLevelsRow>(LEVELS_SQL[format], {
        bind: [tenantId, skus, warehouseCode ?? null],
        type: QueryTypes.SELECT,
      }),
    );
    return row!;
  }
}
