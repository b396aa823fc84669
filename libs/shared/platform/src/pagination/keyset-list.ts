import { cursorColumn, type ListQuery } from './list-query.js';

/** One optional condition of a list: left out when its value is undefined, else written with its bind. */
export interface ListFilter {
  value: unknown;
  /** The condition, given the bind (`$7`) its value is bound to. */
  condition: (bind: string) => string;
}

/**
 * A keyset page over the table aliased `alias` (with `tenant_id`, `updated_at` and `id`): the tenant's rows
 * changed at or after updatedSince, in (updated_at, id) order after the cursor, `limit + 1` of them, narrowed
 * by the filters that have a value. A filter left out is not in the statement at all, so each combination
 * is planned on the index that fits it.
 */
export function keysetListSql(
  alias: string,
  tenantId: string,
  query: Pick<ListQuery, 'updatedSince' | 'limit' | 'cursor'>,
  filters: ListFilter[] = [],
): DocumentListSql {
  const bind: unknown[] = [tenantId];
  const next = (value: unknown) => `$${bind.push(value)}`;
  const conditions = [`${alias}.tenant_id = $1`];
  if (query.updatedSince !== undefined)
    conditions.push(`${alias}.updated_at >= ${next(query.updatedSince)}::timestamptz`);
  if (query.cursor) {
    const at = next(query.cursor.updatedAt);
    conditions.push(`(${alias}.updated_at, ${alias}.id) > (${at}::timestamptz, ${next(query.cursor.id)}::uuid)`);
  }
  for (const filter of filters) if (filter.value !== undefined) conditions.push(filter.condition(next(filter.value)));
  const limit = next(query.limit + 1);
  return {
    cursor: cursorColumn(`${alias}.updated_at`, `${alias}.id`),
    page: `WHERE ${conditions.join('\n         AND ')}
       ORDER BY ${alias}.updated_at, ${alias}.id
       LIMIT ${limit}`,
    bind,
  };
}

/** The parts of an integration list's statement over one table, with their binds from `$1`. */
export interface DocumentListSql {
  /** The select-list item `… AS cursor` (see `cursorColumn`). */
  cursor: string;
  /** WHERE, ORDER BY and LIMIT: the tenant's rows in (updated_at, id) order after the cursor, `limit + 1` of them. */
  page: string;
  bind: unknown[];
}

/**
 * The one shape of the document lists (orders, ASNs, returns): the table aliased `alias` has a `status`
 * too; `referenceNo` is the list's own condition (a return names its order's reference).
 */
export function documentListSql(
  alias: string,
  tenantId: string,
  query: ListQuery,
  referenceNo: (bind: string) => string = (bind) => `${alias}.reference_no = ${bind}`,
): DocumentListSql {
  return keysetListSql(alias, tenantId, query, [
    { value: query.status, condition: (bind) => `${alias}.status = ${bind}` },
    { value: query.referenceNo, condition: referenceNo },
  ]);
}
