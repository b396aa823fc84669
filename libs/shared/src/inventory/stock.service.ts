import { Joi } from '../validation/index.js';
import { PreparedStatement, type Database } from '../db/index.js';
import { AppError } from '../errors/index.js';
import { dateSql, lotNumber } from './fields.js';

export interface StockQuery {
  sku: string;
  warehouseCode?: string;
  lotNo?: string;
}

export interface StockRowView {
  warehouseCode: string;
  locationCode: string;
  lotNo: string | null;
  expiryDate: string | null;
  qtyOnHand: number;
  qtyAllocated: number;
  qtyAvailable: number;
}

/** The stock inquiry: per sku and location, on hand, allocated and available, with lot and expiryDate per row. */
export interface StockInquiry {
  sku: string;
  itemName: string;
  tracking: string;
  totalOnHand: number;
  totalAllocated: number;
  totalAvailable: number;
  stocks: StockRowView[];
}

export const stockQuerySchema = Joi.object<StockQuery & { tenantId?: string }>({
  sku: Joi.string().trim().min(1).max(100).required(),
  warehouseCode: Joi.string().trim().min(1).max(100).description('when left out, every warehouse of the tenant'),
  lotNo: lotNumber(),
  tenantId: Joi.string().guid().description('the tenant, for a cross-tenant API key'),
}).label('StockQuery');

/**
 * The stock inquiry in one statement. $1 tenant id, $2 sku, $3 warehouse code or null, $4 lot or null;
 * one row: `warehouseKnown` and `item` (the answer as JSON text, null for an unknown sku). The answer
 * leaves PostgreSQL as text and goes into the response as it is, never parsed and serialized again.
 */
export const STOCK_INQUIRY_SQL = `WITH item AS (SELECT id, sku, name, tracking FROM items WHERE tenant_id = $1 AND sku = $2),
      wh AS (SELECT id, code FROM warehouses WHERE tenant_id = $1 AND ($3::text IS NULL OR code = $3)),
      rows AS (
        SELECT w.code AS "warehouseCode", l.code AS "locationCode", NULLIF(s.lot_no, '') AS "lotNo",
               ${dateSql('s.expiry_date')} AS "expiryDate", s.qty_on_hand, s.qty_allocated
        FROM stock_rows s
        JOIN item i ON i.id = s.item_id
        JOIN wh w ON w.id = s.warehouse_id
        JOIN locations l ON l.id = s.location_id
        WHERE s.tenant_id = $1 AND s.qty_on_hand > 0 AND ($4::text IS NULL OR s.lot_no = $4))
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
 * The stock inquiry in one statement: the item, its rows with stock (joined to their warehouse and
 * location codes) and totals summed by PostgreSQL as exact numerics, so the totals are the rows' sum.
 */
export class StockService {
  private readonly statement = new PreparedStatement<{ item: string | null; warehouseKnown: boolean }>(
    'stock-inquiry',
    STOCK_INQUIRY_SQL,
  );

  constructor(private readonly db: Database) {}

  async inquire(tenantId: string, query: StockQuery): Promise<StockInquiry> {
    return JSON.parse(await this.inquireJson(tenantId, query)) as StockInquiry;
  }

  /** The answer as JSON text, as PostgreSQL built it. */
  async inquireJson(tenantId: string, query: StockQuery): Promise<string> {
    const [row] = await this.statement.rows(this.db.sequelize, [
      tenantId,
      query.sku,
      query.warehouseCode ?? null,
      query.lotNo ?? null,
    ]);
    const { item, warehouseKnown } = row!;
    if (!warehouseKnown) throw AppError.referenceNotFound(`Warehouse code ${query.warehouseCode} not found`);
    // An unknown sku is a reference the query names, like an unknown warehouse: 400, not 404.
    if (!item) throw AppError.referenceNotFound(`Item SKU ${query.sku} not found`);
    return item;
  }
}
