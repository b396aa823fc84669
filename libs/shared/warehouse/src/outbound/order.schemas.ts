import { Joi } from '@wms/platform';
import { dateOnly, quantity } from '../inventory/index.js';

const code = (max = 100) => Joi.string().trim().min(1).max(max);

export const ORDER_STATUSES = ['open', 'allocated', 'released', 'picked', 'shipped', 'cancelled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** Lines per order: bounded so one body cannot ask for unbounded work. */
export const ORDER_LINES_MAX = 1000;

export interface OrderLineInput {
  lineNo: number;
  sku: string;
  uomCode: string;
  qtyOrdered: number;
}

export interface OrderInput {
  warehouseCode: string;
  customerCode: string;
  requiredDate?: string;
  priority: number;
  shipTo?: { name?: string; address?: string } | null;
  referenceNo: string;
  lines: OrderLineInput[];
}

/** A sales order. referenceNo is unique per tenant; requiredDate, priority and shipTo may be left out. */
export const orderSchema = Joi.object<OrderInput>({
  warehouseCode: code().required(),
  customerCode: code().required().description('partner code; the partner must be of type customer or other'),
  requiredDate: dateOnly(),
  priority: Joi.number().integer().min(0).max(1_000_000).default(0),
  shipTo: Joi.object({
    name: Joi.string().trim().max(255).allow(''),
    address: Joi.string().trim().max(2000).allow(''),
  }).allow(null),
  referenceNo: code().required().description('external reference, unique per tenant'),
  lines: Joi.array()
    .items(
      Joi.object<OrderLineInput>({
        lineNo: Joi.number().integer().min(1).max(1_000_000).required(),
        sku: code().required(),
        uomCode: code(20).required().description("must be the item's baseUomCode"),
        qtyOrdered: quantity().required(),
      }).label('OrderLine'),
    )
    .min(1)
    .max(ORDER_LINES_MAX)
    .unique('lineNo')
    .required()
    .messages({ 'array.unique': '{{#label}} repeats lineNo {{#value.lineNo}}' }),
}).label('Order');

export const orderRefSchema = Joi.object({
  id: Joi.string().guid().allow(null),
  orderNo: Joi.string(),
  referenceNo: Joi.string(),
})
  .options({ presence: 'required' })
  .label('OrderRef');
