import { Joi } from '@wms/platform';
import { answerDate, answerObject, answerQty, nullable } from '../documents/index.js';
import { ITEM_TRACKING } from '../master-data/index.js';

/** The stock inquiry's answer (stock-inquiry.repository.ts): the item, its rows and their totals. */
export const stockInquirySchema = answerObject({
  sku: Joi.string(),
  itemName: Joi.string(),
  tracking: Joi.string().valid(...ITEM_TRACKING),
  totalOnHand: answerQty(),
  totalAllocated: answerQty(),
  totalAvailable: answerQty(),
  stocks: Joi.array()
    .items(
      answerObject({
        warehouseCode: Joi.string(),
        locationCode: Joi.string(),
        lotNo: nullable(Joi.string()),
        expiryDate: nullable(answerDate()),
        qtyOnHand: answerQty(),
        qtyAllocated: answerQty(),
        qtyAvailable: answerQty(),
      }).label('StockRow'),
    )
    .description('one row per warehouse, location and lot with stock on hand'),
}).label('StockInquiry');
