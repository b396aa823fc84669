import type { AlternativesSchema, PartialSchemaMap } from 'joi';
import { Joi, validate } from '@wms/platform';
import { adjustmentSchema, cycleCountSchema, lotNumber } from '../inventory/index.js';

/** What a sandbox simulation runs, named by the event it ends in. */
export const SIMULATION_TYPES = [
  'asn.received',
  'order.shipped',
  'stock.adjusted',
  'cyclecount.variance',
  'return.received',
] as const;
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
  | ({ type: 'cyclecount.variance'; sku: string; countedQty: number } & StockPlace)
  | { type: 'return.received'; rmaNo: string };

const code = () => Joi.string().trim().min(1).max(100);
/** The quantities follow the staff operations' own rules (numeric(18,4): up to 1e12, at most 4 decimals). */
const qtyDelta = adjustmentSchema.extract('qtyDelta') as Joi.NumberSchema;
const countedQty = cycleCountSchema.extract('countedQty') as Joi.NumberSchema;
const typeOf = (type: SimulationType) => Joi.string().valid(type).required();
const stockPlace = {
  warehouseCode: code().description("default: the tenant's only warehouse"),
  locationCode: code().description('default: RECEIVING'),
  lotNo: lotNumber().description('required for lot- or serial-tracked items'),
};

/** Each simulation's body, by its type; a field of another type is refused. */
export const SIMULATION_SCHEMAS: Record<SimulationType, Joi.ObjectSchema> = {
  'asn.received': Joi.object({
    type: typeOf('asn.received'),
    asnNo: code().required().description('the ASN whose open lines are received, in full, at RECEIVING'),
  }).label('AsnReceivedSimulation'),
  'order.shipped': Joi.object({
    type: typeOf('order.shipped'),
    orderNo: code().required().description('the order to allocate, release, pick and ship, from its state on'),
    carrier: code(),
    trackingNo: code(),
  }).label('OrderShippedSimulation'),
  'stock.adjusted': Joi.object({
    type: typeOf('stock.adjusted'),
    sku: code().required(),
    qtyDelta,
    reason: Joi.string().trim().min(1).max(500).description('default "sandbox simulation"'),
    ...stockPlace,
  }).label('StockAdjustedSimulation'),
  'cyclecount.variance': Joi.object({
    type: typeOf('cyclecount.variance'),
    sku: code().required(),
    countedQty: countedQty.description('what was counted; must differ from on hand'),
    ...stockPlace,
  }).label('CycleCountSimulation'),
  'return.received': Joi.object({
    type: typeOf('return.received'),
    rmaNo: code().required().description('the return whose open lines are received, in full, restocked at RECEIVING'),
  }).label('ReturnReceivedSimulation'),
};

/** What is checked first: the type, which decides the rest of the body's schema. */
export const simulationTypeSchema = Joi.object({
  type: Joi.string()
    .valid(...SIMULATION_TYPES)
    .required()
    .description('what to run; the name of the event it ends in'),
})
  .unknown(true)
  .label('Simulation');

/** A simulation body, as the OpenAPI document shows it: one of them, told apart by `type`. */
export function documentedSimulationSchema(extra: PartialSchemaMap = {}): AlternativesSchema {
  return Joi.alternatives()
    .try(...SIMULATION_TYPES.map((type) => SIMULATION_SCHEMAS[type].keys(extra)))
    .label('Simulation');
}

/** Checks a simulation body: its type, then the fields of that type (every problem named by its path). */
export function validateSimulation(body: unknown): SimulationInput {
  const { type } = validate<{ type: SimulationType }>(simulationTypeSchema, body);
  return validate<SimulationInput>(SIMULATION_SCHEMAS[type], body);
}
