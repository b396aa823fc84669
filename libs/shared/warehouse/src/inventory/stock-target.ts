import { Joi } from '@wms/platform';
import type { Transaction } from 'sequelize';
import type { Database } from '@wms/platform';
import { AppError } from '@wms/platform';
import { ReferenceRepository } from '../master-data/index.js';
import { lotNumber, lotProblem } from './fields.js';
import type { StockKey } from './stock-key.repository.js';

/** The stock key an adjustment or a count names, by its natural keys. */
export interface StockTargetInput {
  warehouseCode: string;
  locationCode: string;
  sku: string;
  lotNo?: string;
}

/** The target resolved in the tenant, with the codes events report it by. */
export interface StockTarget {
  key: StockKey;
  warehouseCode: string;
  locationCode: string;
  sku: string;
  lotNo: string | null;
}

const code = () => Joi.string().trim().min(1).max(100);

export const stockTargetFields = {
  warehouseCode: code().required(),
  locationCode: code().required(),
  sku: code().required(),
  lotNo: lotNumber().description('required for lot- or serial-tracked items, refused for others'),
};

/**
 * Resolves warehouse, location and sku in the tenant (another tenant's are not found: 400
 * REFERENCE_NOT_FOUND) and applies the lot rule: a lot-tracked item's stock is kept per lot, so the lot
 * is required; an item without lots takes none.
 */
export async function resolveStockTarget(
  db: Database,
  tenantId: string,
  input: StockTargetInput,
  transaction: Transaction,
): Promise<StockTarget> {
  const references = new ReferenceRepository(db);
  const refs = await references.resolve(
    tenantId,
    { warehouseCodes: [input.warehouseCode], skus: [input.sku] },
    transaction,
  );
  const warehouse = refs.warehouse(input.warehouseCode);
  const item = refs.item(input.sku);
  const locationId = (await references.locationIds(warehouse.id, [input.locationCode], transaction)).get(
    input.locationCode,
  );
  if (!locationId) throw AppError.referenceNotFound(`Location code ${input.locationCode} not found`);
  const problem = lotProblem(item, input.lotNo, null, true);
  if (problem) throw AppError.validation(problem, [{ path: 'lotNo', message: problem }]);
  return {
    key: { warehouseId: warehouse.id, locationId, itemId: item.id, lotNo: input.lotNo ?? '' },
    warehouseCode: warehouse.code,
    locationCode: input.locationCode,
    sku: item.sku,
    lotNo: input.lotNo ?? null,
  };
}
