import { Joi } from '@wms/platform';
import { dateOnly, lotNumber, quantity } from '../inventory/index.js';

const code = (max = 100) => Joi.string().trim().min(1).max(max);

export const ASN_STATUSES = ['open', 'receiving', 'completed'] as const;
export type AsnStatus = (typeof ASN_STATUSES)[number];

/** Lines per document: generous for a real delivery, bounded so one body cannot ask for unbounded work. */
export const DOCUMENT_LINES_MAX = 1000;

export interface AsnLineInput {
  lineNo: number;
  sku: string;
  uomCode: string;
  expectedQty: number;
  lotNo?: string;
  expiryDate?: string;
}

export interface AsnInput {
  warehouseCode: string;
  supplierCode: string;
  expectedDate?: string;
  referenceNo: string;
  lines: AsnLineInput[];
}

const asnLineSchema = Joi.object<AsnLineInput>({
  lineNo: Joi.number().integer().min(1).max(1_000_000).required(),
  sku: code().required(),
  uomCode: code(20).required().description("must be the item's baseUomCode"),
  expectedQty: quantity().required(),
  lotNo: lotNumber().description('only for lot-tracked items; when set, receipts of this line are of this lot'),
  expiryDate: dateOnly().description('only for lot-tracked items'),
}).label('AsnLine');

/** An advance shipping notice. referenceNo is unique per tenant; expectedDate may be left out. */
export const asnSchema = Joi.object<AsnInput>({
  warehouseCode: code().required(),
  supplierCode: code().required().description('partner code; the partner must be of type supplier or other'),
  expectedDate: dateOnly(),
  referenceNo: code().required().description('external reference, unique per tenant'),
  lines: Joi.array()
    .items(asnLineSchema)
    .min(1)
    .max(DOCUMENT_LINES_MAX)
    .unique('lineNo')
    .required()
    .messages({ 'array.unique': '{{#label}} repeats lineNo {{#value.lineNo}}' }),
}).label('Asn');

export const asnRefSchema = Joi.object({
  id: Joi.string().guid().allow(null),
  asnNo: Joi.string(),
  referenceNo: Joi.string(),
})
  .options({ presence: 'required' })
  .label('AsnRef');

export interface GrnLineInput {
  asnLineNo?: number;
  sku: string;
  uomCode: string;
  qty: number;
  lotNo?: string;
  expiryDate?: string;
  locationCode?: string;
}

export interface GrnInput {
  warehouseCode: string;
  asnNo?: string;
  lines: GrnLineInput[];
}

export const RECEIVING_LOCATION = 'RECEIVING';

/**
 * A goods receipt: with asnNo every line names its asnLineNo; a blind receipt
 * (no asnNo) has none. Lot and expiry of an ASN line win over the GRN line's.
 */
export const grnSchema = Joi.object<GrnInput>({
  warehouseCode: code().required(),
  asnNo: code().description('links the receipt to an ASN; left out for a blind receipt'),
  lines: Joi.array()
    .items(
      Joi.object<GrnLineInput>({
        asnLineNo: Joi.number()
          .integer()
          .min(1)
          .max(1_000_000)
          .when('....asnNo', { is: Joi.exist(), then: Joi.required(), otherwise: Joi.forbidden() })
          .messages({ 'any.unknown': '{{#label}} is only allowed when the GRN names an asnNo' }),
        sku: code().required(),
        uomCode: code(20).required(),
        qty: quantity().required(),
        lotNo: lotNumber(),
        expiryDate: dateOnly(),
        locationCode: code().description(`where the stock is put; default ${RECEIVING_LOCATION}`),
      }).label('GrnLine'),
    )
    .min(1)
    .max(DOCUMENT_LINES_MAX)
    .required(),
}).label('Grn');
