import { Joi } from '@wms/platform';
import { answerDate, answerId, answerObject, answerQty, answerTime, nullable } from '../documents/index.js';
import { ORDER_STATUSES } from './order.schemas.js';

/** The answers about orders: what the inquiry, a create, the list and a cancel send (orders.repository.ts). */

const orderHeader = {
  id: answerId(),
  orderNo: Joi.string(),
  referenceNo: Joi.string().description('external reference, unique per tenant'),
  warehouseCode: Joi.string(),
  customerCode: Joi.string(),
  requiredDate: nullable(answerDate()),
  priority: Joi.number().integer(),
  shipTo: nullable(
    Joi.object({ name: Joi.string().allow(''), address: Joi.string().allow('') }).label('ShipTo'),
  ).description('as sent; null when none was'),
  status: Joi.string().valid(...ORDER_STATUSES),
  createdAt: answerTime(),
  updatedAt: answerTime(),
  cancelledAt: nullable(answerTime()),
};

/** One order of the list: its header. */
export const orderListItemSchema = answerObject(orderHeader).label('OrderSummary');

/** The order inquiry (and the answer of its creation): header, lines, pick tasks and the lines' totals. */
export const orderDocumentSchema = answerObject({
  ...orderHeader,
  lines: Joi.array().items(
    answerObject({
      lineNo: Joi.number().integer(),
      sku: Joi.string(),
      uomCode: Joi.string(),
      qtyOrdered: answerQty(),
      qtyAllocated: answerQty(),
      qtyPicked: answerQty(),
      qtyShipped: answerQty(),
    }).label('OrderLineView'),
  ),
  pickTasks: Joi.array().items(
    answerObject({
      id: answerId(),
      lineNo: Joi.number().integer(),
      sku: Joi.string(),
      locationCode: Joi.string(),
      lotNo: nullable(Joi.string()),
      qty: answerQty('quantity to pick'),
      qtyPicked: answerQty(),
      status: Joi.string().valid('open', 'picked', 'cancelled'),
    }).label('PickTaskView'),
  ),
  summary: answerObject({
    totalOrdered: answerQty(),
    totalAllocated: answerQty(),
    totalPicked: answerQty(),
    totalShipped: answerQty(),
  }).label('OrderSummaryTotals'),
}).label('OrderDocument');

/** The answer of a cancel. */
export const orderCancelledSchema = answerObject({
  orderNo: Joi.string(),
  status: Joi.valid('cancelled'),
}).label('OrderCancelled');

/** A confirmed pick (`ConfirmedPick`): the task with its order, and the order's state after it. */
export const confirmedPickSchema = answerObject({
  id: answerId(),
  orderNo: Joi.string(),
  lineNo: Joi.number().integer(),
  sku: Joi.string(),
  locationCode: Joi.string(),
  lotNo: nullable(Joi.string()),
  qty: answerQty('quantity to pick'),
  qtyPicked: answerQty(),
  status: Joi.string().valid('open', 'picked', 'cancelled'),
  orderStatus: Joi.string().valid(...ORDER_STATUSES),
}).label('ConfirmedPick');

/** A shipment (`ShipmentView`): what left the warehouse for an order. */
export const shipmentSchema = answerObject({
  id: answerId(),
  shipmentNo: Joi.string(),
  orderNo: Joi.string(),
  warehouseCode: Joi.string(),
  carrier: nullable(Joi.string()),
  trackingNo: nullable(Joi.string()),
  shippedAt: answerTime(),
  lines: Joi.array().items(
    answerObject({ lineNo: Joi.number().integer(), sku: Joi.string(), qtyShipped: answerQty() }).label('ShipmentLine'),
  ),
}).label('Shipment');
