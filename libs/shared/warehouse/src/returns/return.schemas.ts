import { Joi } from '@wms/platform';
import { lotNumber, quantity } from '../inventory/index.js';
import { DOCUMENT_LINES_MAX } from '../inbound/index.js';

const code = (max = 100) => Joi.string().trim().min(1).max(max);

export const RETURN_STATUSES = ['open', 'partially_received', 'received', 'closed', 'cancelled'] as const;
export type ReturnStatus = (typeof RETURN_STATUSES)[number];

export const DISPOSITIONS = ['restock', 'quarantine', 'scrap'] as const;
export type Disposition = (typeof DISPOSITIONS)[number];

/** Where restocked goods go when a receipt line names no location. */
export const RESTOCK_LOCATION = 'RECEIVING';
/** The quarantine location a receipt line without locationCode uses; created (type quarantine) on first use. */
export const QUARANTINE_LOCATION = 'QUARANTINE';

export interface ReturnLineInput {
  sku: string;
  qty: number;
  lotNo?: string;
  reason?: string;
}

export interface ReturnInput {
  rmaNo: string;
  orderNo: string;
  lines: ReturnLineInput[];
}

/** A line is one sku and lot: two lines of the same sku and lot would make a receipt's line ambiguous. */
const sameLine = (a: ReturnLineInput, b: ReturnLineInput) => a.sku === b.sku && (a.lotNo ?? '') === (b.lotNo ?? '');

/** A customer return (RMA) of a shipped order. rmaNo is the shop's or ERP's own number, unique per tenant. */
export const returnSchema = Joi.object<ReturnInput>({
  rmaNo: code().required().description('the return merchandise authorisation number of the shop or ERP'),
  orderNo: code().required().description('the shipped sales order the goods come back from'),
  lines: Joi.array()
    .items(
      Joi.object<ReturnLineInput>({
        sku: code().required(),
        qty: quantity().required().description('at most what the order shipped of the sku, less earlier returns'),
        lotNo: lotNumber().description('the lot coming back, when known; the receipt may name it instead'),
        reason: Joi.string().trim().min(1).max(500).description("the customer's reason"),
      }).label('ReturnLine'),
    )
    .min(1)
    .max(DOCUMENT_LINES_MAX)
    .unique(sameLine)
    .required()
    .messages({ 'array.unique': '{{#label}} repeats a sku and lot of an earlier line' }),
}).label('Return');

export const returnRefSchema = Joi.object({
  id: Joi.string().guid().allow(null),
  rmaNo: Joi.string(),
})
  .options({ presence: 'required' })
  .label('ReturnRef');

export interface ReceiptLineInput {
  sku: string;
  qty: number;
  lotNo?: string;
  disposition: Disposition;
  locationCode?: string;
}

export interface ReceiptInput {
  lines: ReceiptLineInput[];
}

/** A receipt of returned goods: per line what came back and what becomes of it. */
export const returnReceiptSchema = Joi.object<ReceiptInput>({
  lines: Joi.array()
    .items(
      Joi.object<ReceiptLineInput>({
        sku: code().required(),
        qty: quantity().required(),
        lotNo: lotNumber().description("the lot received; default the return line's"),
        disposition: Joi.string()
          .valid(...DISPOSITIONS)
          .required()
          .description('restock: on hand, available; quarantine: on hand, never allocated; scrap: recorded only'),
        locationCode: code()
          .when('disposition', {
            is: 'scrap',
            then: Joi.forbidden(),
          })
          .messages({ 'any.unknown': '{{#label}} is not allowed for a scrapped line' })
          .description(
            `restock: default ${RESTOCK_LOCATION}, not a quarantine location; quarantine: a location of type quarantine, default ${QUARANTINE_LOCATION}`,
          ),
      }).label('ReturnReceiptLine'),
    )
    .min(1)
    .max(DOCUMENT_LINES_MAX)
    .required(),
}).label('ReturnReceipt');
