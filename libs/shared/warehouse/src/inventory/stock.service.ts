import { Joi, isoInstant } from '@wms/platform';
import type { Database, QuantityFormat } from '@wms/platform';
import { AppError } from '@wms/platform';
import { lotNumber } from './fields.js';
import { StockInquiryRepository } from './stock-inquiry.repository.js';

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

/**
 * The stock inquiry in one statement: the item, its rows with stock (joined to their warehouse and
 * location codes) and totals summed by PostgreSQL as exact numerics, so the totals are the rows' sum.
 */
export class StockService {
  private readonly repository: StockInquiryRepository;

  constructor(db: Database) {
    this.repository = new StockInquiryRepository(db);
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
}
