import { cursorColumn, type ListQuery } from './list-query.js';

/** One optional condition of a list, bound from `$7` on: `($n::type IS NULL OR test)`, its value null when absent. */
export interface ListFilter {
  value: unknown;
  /** The PostgreSQL type of the value (`text`, `text[]`, `uuid`), so a null is never left to be guessed. */
  type: string;
  /** The condition, given its bind already cast (`$7::text`). */
  test: (bind: string) => string;
}

/** The parts of an integration list's statement over one table, with their binds from `$1`. */
export interface DocumentListSql {
  /** The select-list item `… AS cursor` (see `cursorColumn`). */
  cursor: string;
  /** WHERE, ORDER BY and LIMIT: the tenant's rows in (updated_at, id) order after the cursor, `limit + 1` of them. */
  page: string;
  bind: unknown[];
}

/** Where the filters' binds start: after tenant, updatedSince, the cursor's two parts and the limit. */
const FIRST_FILTER_BIND = 6;

/**
 * A keyset page over the table aliased `alias` (with `tenant_id`, `updated_at` and `id`): the tenant's rows
 * changed at or after updatedSince, in (updated_at, id) order after the cursor, `limit + 1` of them, narrowed
 * by the filters. Every bind is typed and bound (null when absent); PostgreSQL plans the unnamed statement
 * with its values, so an absent filter folds away and the page reads the index of the filters given.
 */
export function keysetListSql(
  alias: string,
  tenantId: string,
  query: Pick<ListQuery, 'updatedSince' | 'limit' | 'cursor'>,
  filters: ListFilter[] = [],
): DocumentListSql {
  const conditions = filters.map((filter, index) => {
    const bind = `$${FIRST_FILTER_BIND + index}::${filter.type}`;
    return `\n         AND (${bind} IS NULL OR ${filter.test(bind)})`;
  });
  return {
    cursor: cursorColumn(`${alias}.updated_at`, `${alias}.id`),
    page: `WHERE ${alias}.tenant_id = $1
         AND ($2::timestamptz IS NULL OR ${alias}.updated_at >= $2::timestamptz)
         AND ($3::timestamptz IS NULL OR (${alias}.updated_at, ${alias}.id) > ($3::timestamptz, $4::uuid))${conditions.join('')}
       ORDER BY ${alias}.updated_at, ${alias}.id
       LIMIT $5`,
    bind: [
      tenantId,
      query.updatedSince ?? null,
      query.cursor?.updatedAt ?? null,
      query.cursor?.id ?? null,
      query.limit + 1,
      ...filters.map((filter) => filter.value ?? null),
    ],
  };
}

/**
 * The one shape of the document lists (orders, ASNs, returns): the table aliased `alias` has a `status`
 * too; `referenceNo` is the list's own test (a return names its order's reference).
 */
export function documentListSql(
  alias: string,
  tenantId: string,
  query: ListQuery,
  referenceNo: (bind: string) => string = (bind) => `${alias}.reference_no = ${bind}`,
): DocumentListSql {
  return keysetListSql(alias, tenantId, query, [
    { value: query.status, type: 'text', test: (bind) => `${alias}.status = ${bind}` },
    { value: query.referenceNo, type: 'text', test: referenceNo },
  ]);
}
