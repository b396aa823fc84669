import { Joi } from '@wms/platform';
import { answerDate, answerId, answerObject, answerQty, answerTime, nullable } from '../documents/index.js';
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

const stockKey = {
  id: answerId(),
  warehouseCode: Joi.string(),
  locationCode: Joi.string(),
  sku: Joi.string(),
  lotNo: nullable(Joi.string()),
};

/** A stock adjustment (`AdjustmentView`) with the stock row after it. */
export const adjustmentAnswerSchema = answerObject({
  ...stockKey,
  qtyDelta: answerQty(),
  qtyOnHand: answerQty('on hand after the adjustment'),
  qtyAllocated: answerQty(),
  reason: Joi.string(),
  createdAt: answerTime(),
}).label('Adjustment');

/** A cycle count (`CycleCountView`) with its variance and what it adjusted. */
export const cycleCountAnswerSchema = answerObject({
  ...stockKey,
  systemQty: answerQty('on hand when counted'),
  countedQty: answerQty(),
  variance: answerQty('countedQty - systemQty'),
  qtyAdjusted: answerQty('what the count changed on hand by'),
  unresolvedQty: answerQty('what on hand could not be brought down by, because allocations reserve it'),
  qtyOnHand: answerQty('on hand after the count'),
  createdAt: answerTime(),
}).label('CycleCount');
