import { Joi } from './joi.js';

/**
 * The times a request may name: from 1970-01-01 to the end of 9999, in UTC. JavaScript's Date reaches
 * further (±275760) and PostgreSQL's timestamptz another range (4713 BC to 294276 AD), and a year such as
 * 0000 is neither's: a time outside this range would reach a statement only to be refused there.
 */
export const INSTANT_MIN = new Date('1970-01-01T00:00:00.000Z');
export const INSTANT_MAX = new Date('9999-12-31T23:59:59.999Z');

const RANGE_MESSAGE = '{{#label}} must be an ISO 8601 time from 1970-01-01 to 9999-12-31';

/** True for a time, as milliseconds since the epoch, inside the range a request may name. */
function inRange(milliseconds: number): boolean {
  return milliseconds >= INSTANT_MIN.getTime() && milliseconds <= INSTANT_MAX.getTime();
}

/**
 * A query or body time as text: ISO 8601 (joi answers it converted to UTC, `…Z`) inside
 * INSTANT_MIN..INSTANT_MAX. Every time a request names is one of these (or `isoInstantDate`).
 */
export function isoInstant(): Joi.StringSchema {
  return Joi.string()
    .isoDate()
    .custom((value: string, helpers) => (inRange(Date.parse(value)) ? value : helpers.error('instant.range')))
    .messages({ 'instant.range': RANGE_MESSAGE });
}

/** `isoInstant` answered as a Date, for the services that take one. */
export function isoInstantDate(): Joi.DateSchema {
  return Joi.date()
    .iso()
    .min(INSTANT_MIN)
    .max(INSTANT_MAX)
    .messages({ 'date.min': RANGE_MESSAGE, 'date.max': RANGE_MESSAGE });
}

const CURSOR_TIME = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.\d{1,6})?Z$/;

/**
 * A time as a cursor carries it (UTC to the microsecond, `2026-01-02T03:04:05.123456Z`), a real calendar
 * time inside the range: what PostgreSQL's timestamptz takes. Date.parse alone takes "12" or February 30.
 */
export function isCursorTime(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const match = CURSOR_TIME.exec(value);
  if (!match) return false;
  const milliseconds = Date.parse(value);
  return inRange(milliseconds) && new Date(milliseconds).toISOString().startsWith(match[1]!);
}
