import { Joi } from '@wms/platform';
import { lotNumber } from '../inventory/index.js';

/** What a sandbox simulation runs, named by the event it ends in. */
export const SIMULATION_TYPES = ['asn.received', 'order.shipped', 'stock.adjusted', 'cyclecount.variance'] as const;
export type SimulationType = (typeof SIMULATION_TYPES)[number];

/** Where a simulated stock change happens when the body names less. */
export interface StockPlace {
  /** Default: the tenant's only warehouse. */
  warehouseCode?: string;
  /** Default: the warehouse's RECEIVING location. */
  locationCode?: string;
  lotNo?: string;
}

export type SimulationInput =
  | { type: 'asn.received'; asnNo: string }
  | { type: 'order.shipped'; orderNo: string; carrier?: string; trackingNo?: string }
  | ({ type: 'stock.adjusted'; sku: string; qtyDelta: number; reason?: string } & StockPlace)
  | ({ type: 'cyclecount.variance'; sku: string; countedQty: number } & StockPlace);

const code = () => Joi.string().trim().min(1).max(100);
/** A quantity as numeric(18,4) keeps it: up to 1e12, at most 4 decimals. */
const decimal = () =>
  Joi.number()
    .max(1e12)
    .custom((value: number, helpers) => (Number(value.toFixed(4)) === value ? value : helpers.error('number.scale')))
    .messages({ 'number.scale': '{{#label}} must have at most 4 decimals' });
/** A field of these types only: required by `required` ones, refused for the others. */
const only = (schema: Joi.Schema, types: SimulationType[], required = true) =>
  schema.when('type', {
    is: Joi.valid(...types),
    then: required ? Joi.required() : Joi.optional(),
    otherwise: Joi.forbidden(),
  });

const STOCK_TYPES: SimulationType[] = ['stock.adjusted', 'cyclecount.variance'];

/**
 * A simulation: its type and the document or item of the key's tenant it acts on. One object whose fields
 * depend on `type` (a field of another type is refused), so every problem is answered by its field.
 */
export const simulationSchema = Joi.object({
  type: Joi.valid(...SIMULATION_TYPES)
    .required()
    .description('what to run; the name of the event it ends in'),
  asnNo: only(code(), ['asn.received']).description(
    'asn.received: the ASN whose open lines are received, in full, at its warehouse’s RECEIVING location',
  ),
  orderNo: only(code(), ['order.shipped']).description(
    'order.shipped: the order to allocate, release, pick and ship (from whatever state it is in)',
  ),
  carrier: only(code(), ['order.shipped'], false),
  trackingNo: only(code(), ['order.shipped'], false),
  sku: only(code(), STOCK_TYPES).description('stock.adjusted, cyclecount.variance: the item'),
  qtyDelta: only(decimal().min(-1e12).invalid(0).messages({ 'any.invalid': '{{#label}} must not be 0' }), [
    'stock.adjusted',
  ]).description('stock.adjusted: added to on hand; negative takes stock off'),
  reason: only(Joi.string().trim().min(1).max(500), ['stock.adjusted'], false).description(
    'stock.adjusted: the adjustment’s reason (default "sandbox simulation")',
  ),
  countedQty: only(decimal().min(0), ['cyclecount.variance']).description('cyclecount.variance: what was counted'),
  warehouseCode: only(code(), STOCK_TYPES, false).description("default: the tenant's only warehouse"),
  locationCode: only(code(), STOCK_TYPES, false).description('default: RECEIVING'),
  lotNo: only(lotNumber(), STOCK_TYPES, false).description('required for lot- or serial-tracked items'),
}).label('Simulation');
