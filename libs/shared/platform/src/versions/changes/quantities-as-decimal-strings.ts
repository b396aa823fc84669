import { isExactNumber } from '../raw-json.js';
import type { VersionChange } from '../version-change.js';

/**
 * `2026-12-01`: quantities are exact decimal strings with four places (`"12.5000"`), since a float8 number on
 * the wire loses digits past about 10^11 with four decimals. Requests take a string or a number in every
 * version, so only answers and event bodies change.
 *
 * Every quantity field of the answers, webhook bodies, the feed and bulk job results, by name, in this one
 * list: a new quantity field is added here and nowhere else.
 */
export const QUANTITY_FIELDS: ReadonlySet<string> = new Set([
  // stock
  'qtyOnHand',
  'qtyAllocated',
  'qtyAvailable',
  'totalOnHand',
  'totalAllocated',
  'totalAvailable',
  'qtyDelta',
  // stock movements (the inventory ledger)
  'qtyOnHandDelta',
  'qtyAllocatedDelta',
  'qtyOnHandAfter',
  'qtyAllocatedAfter',
  // orders, picking, shipping
  'qtyOrdered',
  'qtyPicked',
  'qtyShipped',
  'totalOrdered',
  'totalPicked',
  'totalShipped',
  'qty',
  // inbound
  'expectedQty',
  'receivedQty',
  // cycle counts
  'systemQty',
  'countedQty',
  'qtyAdjusted',
  'unresolvedQty',
  'variance',
]);

export const QUANTITY_DECIMALS = 4;

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

/**
 * A quantity as the newest versions send it: a decimal string with exactly four places. A string (or a number
 * already written as its digits) is rewritten digit by digit, never through a float; a number (a value computed
 * in JavaScript) by toFixed, which is exact for every quantity a double holds. Anything else is left as it is.
 */
export function toDecimalString(value: unknown): unknown {
  if (typeof value === 'number') return Number.isFinite(value) ? value.toFixed(QUANTITY_DECIMALS) : value;
  if (isExactNumber(value)) return toDecimalString(value.rawJSON);
  if (typeof value !== 'string') return value;
  const match = DECIMAL.exec(value);
  if (!match) return value;
  const [, sign, whole, fraction = ''] = match;
  if (fraction.length > QUANTITY_DECIMALS) return value;
  const digits = whole!.replace(/^0+(?=\d)/, '');
  const negative = sign === '-' && /[1-9]/.test(digits + fraction);
  return `${negative ? '-' : ''}${digits}.${fraction.padEnd(QUANTITY_DECIMALS, '0')}`;
}

/**
 * A decimal's digits as a JSON number's text, without trailing zeros (`"4.0000"` → `4`, `"-0.2500"` →
 * `-0.25`); null for text that is not a decimal.
 */
export function exactNumberText(decimal: string): string | null {
  const match = DECIMAL.exec(decimal);
  if (!match) return null;
  const [, sign, whole, fraction = ''] = match;
  const digits = whole!.replace(/^0+(?=\d)/, '');
  const places = fraction.replace(/0+$/, '');
  const negative = sign === '-' && /[1-9]/.test(digits + places);
  return `${negative ? '-' : ''}${digits}${places ? `.${places}` : ''}`;
}

/**
 * A quantity as `2026-11-21` sends it: a JSON number written with the decimal's own digits (JSON.rawJSON), so
 * a reader parsing numbers as decimals gets exactly what PostgreSQL holds and a JavaScript reader the nearest
 * double, as before.
 */
function toNumber(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const text = exactNumberText(value);
  return text === null ? value : JSON.rawJSON(text);
}

/** Rewrites every quantity field, at any depth, with `convert`; other values are copied as they are. */
export function mapQuantities(value: unknown, convert: (quantity: unknown) => unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => mapQuantities(item, convert));
  if (value === null || typeof value !== 'object' || value instanceof Date || isExactNumber(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    out[key] =
      QUANTITY_FIELDS.has(key) && (typeof field === 'number' || typeof field === 'string' || isExactNumber(field))
        ? convert(field)
        : mapQuantities(field, convert);
  }
  return out;
}

export const quantitiesAsDecimalStrings: VersionChange = {
  name: 'quantities-as-decimal-strings',
  summary: 'quantities are exact decimal strings ("12.5000") instead of numbers',
  description:
    'Quantities are exact decimal strings with four places ("12.5000") in answers, webhook bodies, the feed ' +
    'and bulk job results; requests accept strings or numbers.',
  current: (body) => mapQuantities(body, toDecimalString),
  down: (body) => mapQuantities(body, toNumber),
};

/**
 * How a statement that builds an answer's JSON itself (the hot inquiries) writes quantities: `decimal`
 * (`round(x, 4)::text`) from `2026-12-01` on, `number` (`x::float8`, as before) under older versions.
 */
export type QuantityFormat = 'number' | 'decimal';
