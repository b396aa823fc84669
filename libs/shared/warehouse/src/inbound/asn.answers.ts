import { Joi } from '@wms/platform';
import { answerDate, answerId, answerObject, answerQty, answerTime, nullable } from '../documents/index.js';
import { ASN_STATUSES } from './asn.schemas.js';

/** The answers about ASNs and GRNs: what the inquiry, a create, the list and a receipt send. */

const asnHeader = {
  id: answerId(),
  asnNo: Joi.string(),
  referenceNo: Joi.string().description('external reference, unique per tenant'),
  warehouseCode: Joi.string(),
  supplierCode: Joi.string(),
  expectedDate: nullable(answerDate()),
  status: Joi.string().valid(...ASN_STATUSES),
  createdAt: answerTime(),
  updatedAt: answerTime(),
};

/** One ASN of the list: its header. */
export const asnListItemSchema = answerObject(asnHeader).label('AsnSummary');

const receivedLine = {
  lineNo: Joi.number().integer(),
  asnLineNo: nullable(Joi.number().integer()).description('the ASN line received; null on a blind receipt'),
  sku: Joi.string(),
  qty: answerQty(),
  lotNo: nullable(Joi.string()),
  expiryDate: nullable(answerDate()),
  locationCode: Joi.string(),
};

/** The ASN inquiry (and the answer of its creation): header, lines with what was received, and its GRNs. */
export const asnDocumentSchema = answerObject({
  ...asnHeader,
  lines: Joi.array().items(
    answerObject({
      lineNo: Joi.number().integer(),
      sku: Joi.string(),
      uomCode: Joi.string(),
      expectedQty: answerQty(),
      receivedQty: answerQty(),
      lotNo: nullable(Joi.string()),
      expiryDate: nullable(answerDate()),
    }).label('AsnLineView'),
  ),
  grns: Joi.array().items(
    answerObject({
      grnNo: Joi.string(),
      createdAt: answerTime(),
      lines: Joi.array().items(answerObject(receivedLine).label('AsnGrnLine')),
    }).label('AsnGrn'),
  ),
}).label('AsnDocument');

/** The answer of a goods receipt. */
export const grnAnswerSchema = answerObject({
  id: answerId(),
  grnNo: Joi.string(),
  asnNo: nullable(Joi.string()).description('null on a blind receipt'),
  asnStatus: nullable(Joi.string().valid(...ASN_STATUSES)).description("the ASN's status after the receipt"),
  warehouseCode: Joi.string(),
  createdAt: answerTime(),
  lines: Joi.array().items(answerObject({ ...receivedLine, uomCode: Joi.string() }).label('GrnLineView')),
}).label('Grn');
