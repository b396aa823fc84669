import { Joi } from '@wms/platform';

/** Natural keys and codes: trimmed, non-empty, no longer than a code column should be. */
const code = (max = 100) => Joi.string().trim().min(1).max(max);
const optionalText = (max = 255) => Joi.string().trim().max(max).allow(null, '');

/** A century: any real shelf life, and far inside the integer column. */
const SHELF_LIFE_DAYS_MAX = 36_500;
/** A thousand tonnes per unit; the column (numeric(14,4)) holds less than 1e10. */
const WEIGHT_KG_MAX = 1_000_000;

export const ITEM_TRACKING = ['none', 'lot', 'serial'] as const;
export const PARTNER_TYPES = ['supplier', 'customer', 'carrier', 'other'] as const;
export const LOCATION_TYPES = ['storage', 'receiving', 'staging', 'shipping', 'quarantine'] as const;

export interface ItemInput {
  sku: string;
  name: string;
  barcode?: string | null;
  baseUomCode: string;
  category?: string | null;
  tracking: (typeof ITEM_TRACKING)[number];
  shelfLifeDays?: number | null;
  weightKg?: number | null;
}

export interface PartnerInput {
  code: string;
  name: string;
  type: (typeof PARTNER_TYPES)[number];
  contact?: { name?: string | null; phone?: string | null; email?: string | null; address?: string | null } | null;
}

export interface LocationInput {
  warehouseCode: string;
  code: string;
  zone?: string | null;
  type: (typeof LOCATION_TYPES)[number];
  pickFace: boolean;
}

/** An item, keyed by sku. An upsert carries the whole item: fields left out are reset to their defaults. */
export const itemSchema = Joi.object<ItemInput>({
  sku: code().required().description('natural key, unique per tenant'),
  name: Joi.string().trim().min(1).max(255).required(),
  barcode: optionalText(100),
  baseUomCode: code(20).required().description('unit of measure every quantity of this item is in'),
  category: optionalText(100),
  tracking: Joi.string()
    .valid(...ITEM_TRACKING)
    .default('none')
    .description('lot: stock is kept per lot number'),
  shelfLifeDays: Joi.number().integer().min(0).max(SHELF_LIFE_DAYS_MAX).allow(null),
  weightKg: Joi.number().min(0).max(WEIGHT_KG_MAX).allow(null).description('kilograms'),
}).label('Item');

/** A trading partner (supplier, customer, carrier or other), keyed by code; an upsert carries the whole partner. */
export const partnerSchema = Joi.object<PartnerInput>({
  code: code().required().description('natural key, unique per tenant'),
  name: Joi.string().trim().min(1).max(255).required(),
  type: Joi.string()
    .valid(...PARTNER_TYPES)
    .required(),
  contact: Joi.object({
    name: optionalText(),
    phone: optionalText(50),
    email: Joi.string()
      .trim()
      .email({ tlds: { allow: false } })
      .max(255)
      .allow(null, ''),
    address: optionalText(1000),
  }).allow(null),
}).label('Partner');

/** A location: the key is (warehouseCode, code); the warehouse must exist in the tenant. */
export const locationSchema = Joi.object<LocationInput>({
  warehouseCode: code().required(),
  code: code().required().description('unique within its warehouse'),
  zone: optionalText(100),
  type: Joi.string()
    .valid(...LOCATION_TYPES)
    .default('storage'),
  pickFace: Joi.boolean().default(false).description('allocation prefers pick faces'),
}).label('Location');

const id = Joi.string().guid().allow(null).description('null in a dry run for an entry that would be created');

// What a created or updated entry reports: every field is always there.
export const itemRefSchema = Joi.object({ id, sku: Joi.string() }).options({ presence: 'required' }).label('ItemRef');
export const partnerRefSchema = Joi.object({ id, code: Joi.string() })
  .options({ presence: 'required' })
  .label('PartnerRef');
export const locationRefSchema = Joi.object({ id, warehouseCode: Joi.string(), code: Joi.string() })
  .options({ presence: 'required' })
  .label('LocationRef');
