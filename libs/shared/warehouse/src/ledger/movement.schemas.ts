import { Joi, LIST_LIMIT_MAX, cursorSchema, isCursorTime, isoInstant } from '@wms/platform';
import { lotNumber } from '../inventory/index.js';
import { STOCK_CAUSES, type StockCause } from '../writes/index.js';

/** Where a movements page stopped: the last entry's time (to the microsecond, UTC) and id. */
export interface MovementCursor {
  at: string;
  id: string;
}

export interface MovementsQuery {
  sku?: string;
  since?: string;
  until?: string;
  warehouseCode?: string;
  locationCode?: string;
  lotNo?: string;
  cause?: StockCause;
  limit: number;
  cursor?: MovementCursor;
}

/** A movement: one ledger entry, as the movements list and the portal's history answer it. */
export interface MovementView {
  id: string;
  at: string;
  warehouseCode: string;
  locationCode: string;
  sku: string;
  lotNo: string | null;
  /** Numbers, or exact four-place decimal strings when read for a versioned answer. */
  qtyOnHandDelta: number | string;
  qtyAllocatedDelta: number | string;
  qtyOnHandAfter: number | string;
  qtyAllocatedAfter: number | string;
  cause: StockCause;
  documentNo: string | null;
  caller: { type: 'api_key' | 'user'; id: string } | null;
}

export function encodeMovementCursor(cursor: MovementCursor): string {
  return Buffer.from(JSON.stringify([cursor.at, cursor.id])).toString('base64url');
}

/** The position a movements cursor names, or null when it is not one this API issued. */
export function decodeMovementCursor(text: string): MovementCursor | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (!Array.isArray(value) || value.length !== 2) return null;
    const [at, id] = value;
    if (!isCursorTime(at) || !isEntryId(id)) return null;
    return { at, id };
  } catch {
    return null;
  }
}

const BIGINT_MAX = 2n ** 63n - 1n;

/** A ledger entry's id: a bigint PostgreSQL can hold, as digits. */
function isEntryId(value: unknown): value is string {
  return typeof value === 'string' && /^\d{1,19}$/.test(value) && BigInt(value) <= BIGINT_MAX;
}

const code = () => Joi.string().trim().min(1).max(100);

export const movementsQuerySchema = Joi.object<MovementsQuery & { tenantId?: string }>({
  sku: code().description('one item; when left out, every item of the tenant'),
  since: isoInstant().description('ISO 8601 time; entries at or after it'),
  until: isoInstant().description('ISO 8601 time; entries before it'),
  warehouseCode: code(),
  locationCode: code(),
  lotNo: lotNumber(),
  cause: Joi.string().valid(...STOCK_CAUSES),
  limit: Joi.number().integer().min(1).max(LIST_LIMIT_MAX).default(100),
  cursor: cursorSchema(decodeMovementCursor).description('nextCursor of the previous page'),
  tenantId: Joi.string().guid().description('the tenant, for a cross-tenant API key'),
}).label('MovementsQuery');

const qty = () => Joi.number();

/** One movement, for the OpenAPI document; every field is always present. */
export const movementSchema = Joi.object({
  id: Joi.string().required().description('the entry, in the order entries were written'),
  at: Joi.string().isoDate().required(),
  warehouseCode: Joi.string().required(),
  locationCode: Joi.string().required(),
  sku: Joi.string().required(),
  lotNo: Joi.string().allow(null).required(),
  qtyOnHandDelta: qty().required(),
  qtyAllocatedDelta: qty().required(),
  qtyOnHandAfter: qty().required().description("the stock row's on hand after this change"),
  qtyAllocatedAfter: qty().required(),
  cause: Joi.string()
    .valid(...STOCK_CAUSES)
    .required(),
  documentNo: Joi.string()
    .allow(null)
    .required()
    .description('GRN, order, shipment or RMA number; the adjustment or count id; null for none'),
  caller: Joi.object({
    type: Joi.string().required().description('api_key or user'),
    id: Joi.string().guid().required(),
  })
    .allow(null)
    .required()
    .description('who asked for the change; null for the system'),
}).label('StockMovement');
