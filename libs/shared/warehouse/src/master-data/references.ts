import { AppError } from '@wms/platform';
import type { ITEM_TRACKING, PARTNER_TYPES } from './master-data.schemas.js';

export interface WarehouseRef {
  id: string;
  code: string;
}

export interface PartnerRef {
  id: string;
  code: string;
  type: (typeof PARTNER_TYPES)[number];
}

export interface ItemRef {
  id: string;
  sku: string;
  name: string;
  baseUomCode: string;
  tracking: (typeof ITEM_TRACKING)[number];
}

/** The master data a batch of documents names, resolved in one tenant (another tenant's rows are not found). */
export class References {
  constructor(
    readonly warehouses: Map<string, WarehouseRef>,
    readonly partners: Map<string, PartnerRef>,
    readonly items: Map<string, ItemRef>,
  ) {}

  warehouse(code: string): WarehouseRef {
    const found = this.warehouses.get(code);
    if (!found) throw AppError.referenceNotFound(`Warehouse code ${code} not found`);
    return found;
  }

  partner(code: string): PartnerRef {
    const found = this.partners.get(code);
    if (!found) throw AppError.referenceNotFound(`Partner code ${code} not found`);
    return found;
  }

  item(sku: string): ItemRef {
    const found = this.items.get(sku);
    if (!found) throw AppError.referenceNotFound(`Item SKU ${sku} not found`);
    return found;
  }
}
