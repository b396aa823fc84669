import { Joi, isoInstant } from '@wms/platform';
import type { Database, QuantityFormat } from '@wms/platform';
import { AppError } from '@wms/platform';
import { lotNumber } from './fields.js';
import { StockInquiryRepository } from './stock-inquiry.repository.js';
import { StockLevelsRepository } from './stock-levels.repository.js';

/** At most this many skus in one stock levels call. */
export const STOCK_LEVELS_SKUS_MAX = 100;

export interface StockLevelsQuery {
  sku: string[];
  warehouseCode?: string;
}

export interface StockQuery {
  sku: string;
  warehouseCode?: string;
  lotNo?: string;
  /** ISO 8601 time: the stock as it was then, from the inventory ledger. */
  asOf?: string;
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
  asOf: isoInstant().description(
    'ISO 8601 time: the stock as it was at that moment (the same shape), from the inventory ledger',
  ),
  tenantId: Joi.string().guid().description('the tenant, for a cross-tenant API key'),
}).label('StockQuery');

export const stockLevelsQuerySchema = Joi.object<StockLevelsQuery & { tenantId?: string }>({
  sku: Joi.array()
    .items(Joi.string().trim().min(1).max(100))
    .single()
    .min(1)
    .max(STOCK_LEVELS_SKUS_MAX)
    .required()
    .description(`the skus (the parameter repeated, at most ${STOCK_LEVELS_SKUS_MAX}); the answer keeps their order`),
  warehouseCode: stockQuerySchema.extract('warehouseCode'),
  tenantId: stockQuerySchema.extract('tenantId'),
}).label('StockLevelsQuery');

/**
 * The stock inquiry in one statement: the item, its rows with stock (joined to their warehouse and
 * location codes) and totals summed by PostgreSQL as exact numerics, so the totals are the rows' sum.
 */
export class StockService {
  private readonly repository: StockInquiryRepository;
  private readonly levels: StockLevelsRepository;

  constructor(db: Database) {
    this.repository = new StockInquiryRepository(db);
    this.levels = new StockLevelsRepository(db);
  }

  async inquire(tenantId: string, query: StockQuery): Promise<StockInquiry> {
    return JSON.parse(await this.inquireJson(tenantId, query)) as StockInquiry;
  }

  /** The answer as JSON text, as PostgreSQL built it, its quantities in `format` (numbers by default). */
  async inquireJson(tenantId: string, query: StockQuery, format: QuantityFormat = 'number'): Promise<string> {
    const { item, warehouseKnown } = await this.repository.inquire(tenantId, query, format);
    if (!warehouseKnown) throw AppError.referenceNotFound(`Warehouse code ${query.warehouseCode} not found`);
    // An unknown sku is a reference the query names, like an unknown warehouse: 400, not 404.
    if (!item) throw AppError.referenceNotFound(`Item SKU ${query.sku} not found`);
    return item;
  }

  /**
   * The inquiries of many skus (each in the single inquiry's shape) as a JSON array text, in the order asked,
   * a sku repeated answered once. An unknown sku is refused as the single inquiry refuses it, naming every one.
   */
  async levelsJson(tenantId: string, query: StockLevelsQuery, format: QuantityFormat = 'number'): Promise<string> {
    const skus = [...new Set(query.sku)];
    const { warehouseKnown, missing, levels } = await this.levels.levels(tenantId, skus, query.warehouseCode, format);
    if (!warehouseKnown) throw AppError.referenceNotFound(`Warehouse code ${query.warehouseCode} not found`);
    if (missing.length)
      throw AppError.referenceNotFound(`Item SKU${missing.length > 1 ? 's' : ''} ${missing.join(', ')} not found`);
    return levels;
  }
}
