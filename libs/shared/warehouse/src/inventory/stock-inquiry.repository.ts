import { PreparedStatement, routedRead, type Database, type QuantityFormat } from '@wms/platform';
import { balanceAsOfSql } from '../writes/index.js';
import { dateSql, qtySql } from './fields.js';

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

/**
 * The stock inquiry's object of the item aliased `i` over its stock rows `rows` (a relation with the rows'
 * columns): the item, its totals summed by PostgreSQL as exact numerics and its rows, quantities in `format`.
 */
export const stockObjectSql = (rows: string, format: QuantityFormat): string => `json_build_object(
           'sku', i.sku, 'itemName', i.name, 'tracking', i.tracking,
           'totalOnHand', ${qtySql(`COALESCE((SELECT sum(qty_on_hand) FROM ${rows} t), 0)`, format)},
           'totalAllocated', ${qtySql(`COALESCE((SELECT sum(qty_allocated) FROM ${rows} t), 0)`, format)},
           'totalAvailable', ${qtySql(`COALESCE((SELECT sum(qty_on_hand - qty_allocated) FROM ${rows} t), 0)`, format)},
           'stocks', COALESCE((SELECT json_agg(json_build_object(
               'warehouseCode', r."warehouseCode", 'locationCode', r."locationCode", 'lotNo', r."lotNo",
               'expiryDate', r."expiryDate", 'qtyOnHand', ${qtySql('r.qty_on_hand', format)},
               'qtyAllocated', ${qtySql('r.qty_allocated', format)}, 'qtyAvailable', ${qtySql('r.qty_on_hand - r.qty_allocated', format)})
             ORDER BY r."warehouseCode", r."locationCode", r."lotNo" NULLS FIRST) FROM ${rows} r), '[]'::json))`;

const inquirySql = (
  rows: string,
  format: QuantityFormat,
) => `WITH item AS (SELECT id, sku, name, tracking FROM items WHERE tenant_id = $1 AND sku = $2),
      wh AS (SELECT id, code FROM warehouses WHERE tenant_id = $1 AND ($3::text IS NULL OR code = $3)),
      rows AS (${rows})
 SELECT ($3::text IS NULL OR EXISTS (SELECT 1 FROM wh)) AS "warehouseKnown",
        (SELECT ${stockObjectSql('rows', format)}
         FROM item i)::text AS item`;

const statementsOf = (name: string, rows: string): Record<QuantityFormat, PreparedStatement<StockInquiryRow>> => ({
  number: new PreparedStatement<StockInquiryRow>(name, inquirySql(rows, 'number')),
  decimal: new PreparedStatement<StockInquiryRow>(`${name}-decimal`, inquirySql(rows, 'decimal')),
});

/**
 * The stock inquiry in one statement. $1 tenant id, $2 sku, $3 warehouse code or null, $4 lot or null;
 * one row: `warehouseKnown` and `item` (the answer as JSON text, null for an unknown sku). The answer
 * leaves PostgreSQL as text and goes into the response as it is, never parsed and serialized again, so its
 * quantities are written in the caller's version's format here (ADR 0200).
 */
const inquiryStatements = statementsOf('stock-inquiry', CURRENT_ROWS);
/** The same inquiry as of $5 (ISO time). */
const asOfStatements = statementsOf('stock-inquiry-as-of', ROWS_AS_OF);

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
    format: QuantityFormat,
  ): Promise<StockInquiryRow> {
    const bind = [tenantId, query.sku, query.warehouseCode ?? null, query.lotNo ?? null];
    const [row] = await routedRead(this.db, (from) =>
      query.asOf === undefined
        ? inquiryStatements[format].rows(from.sequelize, bind)
        : asOfStatements[format].rows(from.sequelize, [...bind, query.asOf]),
    );
    return row!;
  }
}

/** The inquiry as `2026-11-21` sends it (the bench's bare server compares with it). */
export const STOCK_INQUIRY_SQL = inquirySql(CURRENT_ROWS, 'number');
/** The inquiry's SQL in a version's quantity format (the bench's bare server runs the same statement). */
export const stockInquirySql = (format: QuantityFormat): string => inquirySql(CURRENT_ROWS, format);
