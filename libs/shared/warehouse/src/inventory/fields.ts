import { Joi, type QuantityFormat } from '@wms/platform';
import type { ItemRef } from '../master-data/index.js';

const QTY_DECIMALS = 4;
const QTY_MAX = 1e12;
/** numeric(18,4) holds up to 14 integer digits: a stock quantity must stay below this. */
export const STOCK_QTY_LIMIT = 1e14;

/** Quantities are positive numbers; stored as numeric(18,4), so more decimals are refused, not rounded. */
export const quantity = () =>
  Joi.number()
    .positive()
    .max(QTY_MAX)
    .custom((value: number, helpers) =>
      Number(value.toFixed(QTY_DECIMALS)) === value ? value : helpers.error('number.scale'),
    )
    .messages({ 'number.scale': `{{#label}} must have at most ${QTY_DECIMALS} decimals` });

/** A calendar date `YYYY-MM-DD` that exists (2024-02-30 is refused). Kept as the string. */
export const dateOnly = () =>
  Joi.string()
    .pattern(/^\d{4}-\d{2}-\d{2}$/)
    .custom((value: string, helpers) => {
      const date = new Date(`${value}T00:00:00Z`);
      return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value)
        ? value
        : helpers.error('date.calendar');
    })
    .messages({
      'string.pattern.base': '{{#label}} must be a date YYYY-MM-DD',
      'date.calendar': '{{#label}} is not a calendar date',
    });

export const lotNumber = () => Joi.string().trim().min(1).max(100);

/** Lots are kept for items tracked by lot or serial (a serial number is kept as its lot). */
export function tracksLots(item: Pick<ItemRef, 'tracking'>): boolean {
  return item.tracking !== 'none';
}

/**
 * The lot rules of one line: an item without lot tracking takes neither lotNo nor expiryDate (its stock
 * has one row per location); a lot-tracked item needs its lot where stock is put on hand (`lotRequired`).
 * Returns the problem, or null.
 */
export function lotProblem(
  item: ItemRef,
  lotNo: string | null | undefined,
  expiryDate: string | null | undefined,
  lotRequired: boolean,
): string | null {
  if (!tracksLots(item)) {
    if (lotNo) return `item SKU ${item.sku} is not lot-tracked, so lotNo is not allowed`;
    if (expiryDate) return `item SKU ${item.sku} is not lot-tracked, so expiryDate is not allowed`;
    return null;
  }
  if (lotRequired && !lotNo) return `item SKU ${item.sku} is lot-tracked, so lotNo is required`;
  return null;
}

/** SQL rendering a timestamptz as ISO 8601 UTC with milliseconds (the answers' timestamp format). */
export function isoSql(column: string): string {
  return `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

/** SQL rendering a date column as `YYYY-MM-DD` (null stays null). */
export function dateSql(column: string): string {
  return `to_char(${column}, 'YYYY-MM-DD')`;
}

/**
 * SQL writing a quantity into an answer PostgreSQL builds as JSON: an exact four-place decimal string for
 * the versions that send them (`round` keeps four places on a sum or a zero too), else a JSON number with the
 * exact digits stored (`trim_scale`: `4` for 4.0000, never through a float8).
 */
export function qtySql(expression: string, format: QuantityFormat): string {
  return format === 'decimal' ? `round(${expression}, 4)::text` : `trim_scale(${expression})`;
}

/**
 * SQL reading a quantity as a column into JavaScript: an exact four-place decimal string, or a float8 the
 * driver hands over as a number (the staff API's numbers). An integration answer read this way is rendered
 * in its version from the decimal string, never from the float.
 */
export function qtyColumnSql(expression: string, format: QuantityFormat): string {
  return format === 'decimal' ? `round(${expression}, 4)::text` : `(${expression})::float8`;
}
