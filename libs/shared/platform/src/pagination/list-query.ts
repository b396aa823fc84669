import { Joi, isCursorTime, isoInstant, isUuid } from '../validation/index.js';

export const LIST_LIMIT_MAX = 500;
const LIST_LIMIT_DEFAULT = 100;

/** Where the previous page stopped: the last row's (updated_at, id), the list's sort key. */
export interface CursorPosition {
  updatedAt: string;
  id: string;
}

export interface ListQuery<Status extends string = string> {
  updatedSince?: string;
  status?: Status;
  /** The client's own reference (orders, ASNs; a return's order). */
  referenceNo?: string;
  limit: number;
  cursor?: CursorPosition;
}

export interface ListPage<T> {
  data: T[];
  nextCursor: string | null;
}

/**
 * The query of an integration list: rows changed at or after updatedSince,
 * optionally of one status, oldest change first, at most `limit`, continued with the opaque cursor.
 */
export function listQuerySchema(statuses: readonly string[]): Joi.ObjectSchema {
  return Joi.object({
    updatedSince: isoInstant().description('ISO 8601 timestamp; rows updated at or after it'),
    status: Joi.string().valid(...statuses),
    referenceNo: Joi.string().trim().min(1).max(100).description("the client's own reference (referenceNo)"),
    limit: Joi.number().integer().min(1).max(LIST_LIMIT_MAX).default(LIST_LIMIT_DEFAULT),
    cursor: cursorSchema(decodeCursor).description('nextCursor of the previous page'),
    tenantId: Joi.string().guid().description('the tenant, for a cross-tenant API key'),
  }).label('ListQuery');
}

/** The page parameters every list shares, taken from the document lists' schema so every list reads them alike. */
export function pageQueryKeys(): Record<'updatedSince' | 'limit' | 'cursor' | 'tenantId', Joi.Schema> {
  const shared = listQuerySchema(['open']);
  return {
    updatedSince: shared.extract('updatedSince'),
    limit: shared.extract('limit'),
    cursor: shared.extract('cursor'),
    tenantId: shared.extract('tenantId'),
  };
}

/**
 * The select-list item `… AS cursor` giving a row's position in a keyset list ordered by (time, id): the
 * time to the microsecond in UTC (a millisecond would let rows of the same millisecond be skipped), as
 * `toPage` and the next page's `(time, id) > (…)` comparison read it. Column names are the caller's SQL.
 */
export function cursorColumn(timeColumn: string, idColumn: string): string {
  return `json_build_object('updatedAt', to_char(${timeColumn} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'), 'id', ${idColumn}) AS cursor`;
}

/**
 * The `cursor` parameter of a list: text its decoder reads back into a position, else 400 naming it. Every
 * list's cursor is one of these, so a forged one (a time of "12", an id of dashes) never reaches a statement.
 */
export function cursorSchema(decode: (cursor: string) => unknown, maxLength = 200): Joi.StringSchema {
  return Joi.string()
    .max(maxLength)
    .custom((value: string, helpers) => decode(value) ?? helpers.error('any.invalid'))
    .messages({ 'any.invalid': '{{#label}} is not a cursor this API issued' });
}

export function encodeCursor(position: CursorPosition): string {
  return Buffer.from(JSON.stringify([position.updatedAt, position.id])).toString('base64url');
}

/** The position a cursor names, or null when it is not one of ours. */
export function decodeCursor(cursor: string): CursorPosition | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (!Array.isArray(value) || value.length !== 2) return null;
    const [updatedAt, id] = value;
    if (!isCursorTime(updatedAt) || !isUuid(id)) return null;
    return { updatedAt, id };
  } catch {
    return null;
  }
}

/** Builds a page from `limit + 1` rows fetched in sort order: the extra row says whether there is more. */
export function toPage<T extends { cursor: CursorPosition }>(rows: T[], limit: number): ListPage<Omit<T, 'cursor'>> {
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    data: page.map(({ cursor: _cursor, ...row }) => row),
    nextCursor: rows.length > limit && last ? encodeCursor(last.cursor) : null,
  };
}
