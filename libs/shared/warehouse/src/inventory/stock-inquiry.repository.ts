import { PreparedStatement, routedRead, type Database } from '@wms/platform';
import { balanceAsOfSql } from '../writes/index.js';
import { dateSql } from './fields.js';

const CURRENT_ROWS = `
        SELECT w.code AS "warehouseCode", l.code AS "locationCode", NULLIF(s.lot_no, '') AS "lotNo",
               ${dateSql('s.expiry_date')} AS "expiryDate", s.qty_on_hand, s.qty_allocated
        FROM stock_rows s
        JOIN item i ON i.id = s.item_id
        JOIN wh w ON w.id = s.warehouse_id
        JOIN locations l ON l.id = s.location_id
        WHERE s.tenant_id = $1 AND s.qty_on_hand > 0 AND ($4::text IS NULL OR s.lot_no = $4)`;

/** The rows as they were at $5, from the inventory ledger (docs/adr/0202-inventory-ledger.md). */
const ROWS_AS_OF = `
        SELECT w.code AS "warehouseCode", l.code AS "locationCode", NULLIF(s.lot_no, '') AS "lotNo",
               ${dateSql('s.expiry_date')} AS "expiryDate", b.qty_on_hand, b.qty_allocated
        FROM stock_rows s
        JOIN item i ON i.id = s.item_id
        JOIN wh w ON w.id = s.warehouse_id
        JOIN locations l ON l.id = s.location_id
        CROSS JOIN LATERAL ${balanceAsOfSql('s', '$5::timestamptz')} b
        WHERE s.tenant_id = $1 AND b.qty_on_hand > 0 AND ($4::text IS NULL OR s.lot_no = $4)`;

const inquirySql = (
  rows: string,
) => `WITH item AS (SELECT id, sku, name, tracking FROM items WHERE tenant_id = $1 AND sku = $2),
      wh AS (SELECT id, code FROM warehouses WHERE tenant_id = $1 AND ($3::text IS NULL OR code = $3)),
      rows AS (${rows})
 SELECT ($3::text IS NULL OR EXISTS (SELECT 1 FROM wh)) AS "warehouseKnown",
        (SELECT json_build_object(
           'sku', i.sku, 'itemName', i.name, 'tracking', i.tracking,
           'totalOnHand', COALESCE((SELECT sum(qty_on_hand) FROM rows), 0)::float8,
           'totalAllocated', COALESCE((SELECT sum(qty_allocated) FROM rows), 0)::float8,
           'totalAvailable', COALESCE((SELECT sum(qty_on_hand - qty_allocated) FROM rows), 0)::float8,
           'stocks', COALESCE((SELECT json_agg(json_build_object(
               'warehouseCode', r."warehouseCode", 'locationCode', r."locationCode", 'lotNo', r."lotNo",
               'expiryDate', r."expiryDate", 'qtyOnHand', r.qty_on_hand::float8,
               'qtyAllocated', r.qty_allocated::float8, 'qtyAvailable', (r.qty_on_hand - r.qty_allocated)::float8)
             ORDER BY r."warehouseCode", r."locationCode", r."lotNo" NULLS FIRST) FROM rows r), '[]'::json))
         FROM item i)::text AS item`;

/**
 * The stock inquiry in one statement. $1 tenant id, $2 sku, $3 warehouse code or null, $4 lot or null;
 * one row: `warehouseKnown` and `item` (the answer as JSON text, null for an unknown sku). The answer
 * leaves PostgreSQL as text and goes into the response as it is, never parsed and serialized again.
 */
export const STOCK_INQUIRY_SQL = inquirySql(CURRENT_ROWS);
/** The same inquiry as of $5 (ISO time). */
const STOCK_AS_OF_SQL = inquirySql(ROWS_AS_OF);

const inquiryStatement = new PreparedStatement<StockInquiryRow>('stock-inquiry', STOCK_INQUIRY_SQL);
const asOfStatement = new PreparedStatement<StockInquiryRow>('stock-inquiry-as-of', STOCK_AS_OF_SQL);

export interface StockInquiryRow {
  /** False when a warehouse code was given and the tenant has no such warehouse. */
  warehouseKnown: boolean;
  /** The inquiry's answer as JSON text; null for an unknown sku. */
  item: string | null;
}

/** The stock inquiry's read: one prepared statement, outside any transaction, on a read replica when routed. */
export class StockInquiryRepository {
  constructor(private readonly db: Database) {}

  async inquire(
    tenantId: string,
    query: { sku: string; warehouseCode?: string; lotNo?: string; asOf?: string },
  ): Promise<StockInquiryRow> {
    const bind = [tenantId, query.sku, query.warehouseCode ?? null, query.lotNo ?? null];
    const [row] = await routedRead(this.db, (from) =>
      query.asOf === undefined
        ? inquiryStatement.rows(from.sequelize, bind)
        : asOfStatement.rows(from.sequelize, [...bind, query.asOf]),
    );
    return row!;
  }
}
