import { Joi } from '@wms/platform';
import { answerId, answerObject, answerQty, answerTime, nullable } from '../documents/index.js';
import { DISPOSITIONS, RETURN_STATUSES } from './return.schemas.js';

/** The answers about customer returns: what the inquiry, a create and the list send (returns.repository.ts). */

const returnHeader = {
  id: answerId(),
  rmaNo: Joi.string(),
  orderNo: Joi.string().description('the shipped order the goods come back from'),
  warehouseCode: Joi.string(),
  status: Joi.string().valid(...RETURN_STATUSES),
  createdAt: answerTime(),
  updatedAt: answerTime(),
  receivedAt: nullable(answerTime()),
  closedAt: nullable(answerTime()),
  cancelledAt: nullable(answerTime()),
};

/** One return of the list: its header with its lines' count and totals. */
export const returnListItemSchema = answerObject({
  ...returnHeader,
  lineCount: Joi.number().integer(),
  qty: answerQty('the quantity of every line'),
  receivedQty: answerQty('what has come back of it'),
}).label('ReturnSummary');

/** The return inquiry (and the answer of its creation): header, lines, and receipts with their dispositions. */
export const returnDocumentSchema = answerObject({
  ...returnHeader,
  lines: Joi.array().items(
    answerObject({
      lineNo: Joi.number().integer(),
      sku: Joi.string(),
      lotNo: nullable(Joi.string()),
      qty: answerQty(),
      receivedQty: answerQty(),
      reason: nullable(Joi.string()),
    }).label('ReturnLineView'),
  ),
  receipts: Joi.array().items(
    answerObject({
      id: answerId(),
      createdAt: answerTime(),
      lines: Joi.array().items(
        answerObject({
          lineNo: Joi.number().integer(),
          returnLineNo: Joi.number().integer(),
          sku: Joi.string(),
          lotNo: nullable(Joi.string()),
          qty: answerQty(),
          disposition: Joi.string().valid(...DISPOSITIONS),
          locationCode: nullable(Joi.string()).description('null for scrapped goods'),
        }).label('ReturnReceiptLineView'),
      ),
    }).label('ReturnReceiptView'),
  ),
}).label('ReturnDocument');
