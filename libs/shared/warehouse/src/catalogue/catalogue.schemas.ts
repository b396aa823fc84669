import { Joi, pageQueryKeys, type CursorPosition } from '@wms/platform';
import { ITEM_TRACKING, LOCATION_TYPES, PARTNER_TYPES } from '../master-data/index.js';

/** At most this many natural keys in one list call (`sku=A&sku=B…`). */
export const CATALOGUE_KEYS_MAX = 100;

interface PageQuery {
  updatedSince?: string;
  limit: number;
  cursor?: CursorPosition;
}

export interface ItemListQuery extends PageQuery {
  sku?: string[];
}

export interface PartnerListQuery extends PageQuery {
  code?: string[];
  type?: (typeof PARTNER_TYPES)[number];
}

export interface LocationListQuery extends PageQuery {
  warehouseCode?: string;
  code?: string[];
}

/** A repeated query parameter (`sku=A&sku=B`); one value alone is a list of one. */
const keyList = (what: string) =>
  Joi.array()
    .items(Joi.string().trim().min(1).max(100))
    .single()
    .min(1)
    .max(CATALOGUE_KEYS_MAX)
    .description(`only these ${what} (the parameter repeated, at most ${CATALOGUE_KEYS_MAX})`);

const listOf = (label: string, keys: Record<string, Joi.Schema>) =>
  Joi.object({ ...pageQueryKeys(), ...keys }).label(label);

export const itemListQuerySchema = listOf('ItemListQuery', { sku: keyList('skus') });
export const partnerListQuerySchema = listOf('PartnerListQuery', {
  code: keyList('partner codes'),
  type: Joi.string().valid(...PARTNER_TYPES),
});
export const locationListQuerySchema = listOf('LocationListQuery', {
  warehouseCode: Joi.string().trim().min(1).max(100).description("only this warehouse's locations"),
  code: keyList('location codes'),
});

const text = Joi.string().allow(null);
const timestamps = {
  createdAt: Joi.string().isoDate().required(),
  updatedAt: Joi.string().isoDate().required().description('the last write; updatedSince compares with it'),
};

/** An item as the catalogue reads answer it: the upsert's fields, its id and times. */
export const itemViewSchema = Joi.object({
  id: Joi.string().guid().required(),
  sku: Joi.string().required(),
  name: Joi.string().required(),
  barcode: text.required(),
  baseUomCode: Joi.string().required(),
  category: text.required(),
  tracking: Joi.string()
    .valid(...ITEM_TRACKING)
    .required(),
  shelfLifeDays: Joi.number().integer().allow(null).required(),
  weightKg: Joi.number().allow(null).required().description('kilograms'),
  ...timestamps,
}).label('ItemView');

export const partnerViewSchema = Joi.object({
  id: Joi.string().guid().required(),
  code: Joi.string().required(),
  name: Joi.string().required(),
  type: Joi.string()
    .valid(...PARTNER_TYPES)
    .required(),
  contact: Joi.object({ name: text, phone: text, email: text, address: text })
    .required()
    .description('the fields the last upsert gave'),
  ...timestamps,
}).label('PartnerView');

export const locationViewSchema = Joi.object({
  id: Joi.string().guid().required(),
  warehouseCode: Joi.string().required(),
  code: Joi.string().required(),
  zone: text.required(),
  type: Joi.string()
    .valid(...LOCATION_TYPES)
    .required(),
  pickFace: Joi.boolean().required(),
  ...timestamps,
}).label('LocationView');

export interface ItemView {
  id: string;
  sku: string;
  name: string;
  barcode: string | null;
  baseUomCode: string;
  category: string | null;
  tracking: (typeof ITEM_TRACKING)[number];
  shelfLifeDays: number | null;
  weightKg: number | null;
  createdAt: string;
  updatedAt: string;
}

export interface PartnerView {
  id: string;
  code: string;
  name: string;
  type: (typeof PARTNER_TYPES)[number];
  contact: { name?: string | null; phone?: string | null; email?: string | null; address?: string | null };
  createdAt: string;
  updatedAt: string;
}

export interface LocationView {
  id: string;
  warehouseCode: string;
  code: string;
  zone: string | null;
  type: (typeof LOCATION_TYPES)[number];
  pickFace: boolean;
  createdAt: string;
  updatedAt: string;
}
