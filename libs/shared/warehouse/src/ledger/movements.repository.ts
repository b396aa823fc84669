import { QueryTypes } from 'sequelize';
import { PreparedStatement, routedRead, type Database, type QuantityFormat } from '@wms/platform';
import { isoSql, qtySql } from '../inventory/index.js';
import type { MovementCursor, MovementView, MovementsQuery } from './movement.schemas.js';

/** The references a movements query names, resolved in the tenant; null where one is unknown or not asked for. */
export interface MovementFilterIds {
  itemId: string | null;
  warehouseId: string | null;
  /** The locations of the code asked for (one per warehouse that has it; none when no warehouse has). */
  locationIds: string[] | null;
  itemKnown: boolean;
  warehouseKnown: boolean;
}

const movementColumns = (
  format: QuantityFormat,
) => `m.id::text AS id, ${isoSql('m.at')} AS at, w.code AS "warehouseCode",
  l.code AS "locationCode", i.sku, NULLIF(m.lot_no, '') AS "lotNo",
  ${qtySql('m.qty_on_hand_delta', format)} AS "qtyOnHandDelta", ${qtySql('m.qty_allocated_delta', format)} AS "qtyAllocatedDelta",
  ${qtySql('m.qty_on_hand_after', format)} AS "qtyOnHandAfter", ${qtySql('m.qty_allocated_after', format)} AS "qtyAllocatedAfter", m.cause, m.document_no AS "documentNo",
  CASE WHEN m.api_key_id IS NOT NULL THEN json_build_object('type', 'api_key', 'id', m.api_key_id)
       WHEN m.user_id IS NOT NULL THEN json_build_object('type', 'user', 'id', m.user_id) END AS caller,
  json_build_object('at', to_char(m.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'), 'id', m.id::text) AS cursor`;

/**
 * A page of movements after the lower bound, oldest first. $1 tenant id, $2 warehouse id, $3 location ids,
 * $4 lot and $5 cause (each null for any), $6 since and $9 until ('-infinity', 'infinity' when open), $7 and $8
 * the cursor's time and id ('-infinity' and -1 without one), $10 the rows to read; with `ofItem`, $11 the item.
 * As a prepared statement PostgreSQL may plan it once, without the values, so its shape leaves no choice that
 * needs them: the page is read from the ledger alone (every filter a column of it) and only its rows are
 * joined to their names; the lower bound is one key, the later of since and the cursor, so the index seeks
 * to it (two bounds would leave the scan to start at either), and the months before it are pruned.
 */
const movementsSql = (format: QuantityFormat, ofItem: boolean) => `
  WITH page AS (
    SELECT * FROM stock_movements m
     WHERE m.tenant_id = $1${ofItem ? ' AND m.item_id = $11' : ''}
       AND ($2::uuid IS NULL OR m.warehouse_id = $2)
       AND ($3::uuid[] IS NULL OR m.location_id = ANY ($3::uuid[]))
       AND ($4::text IS NULL OR m.lot_no = $4)
       AND ($5::text IS NULL OR m.cause = $5)
       AND m.at >= GREATEST($6::timestamptz, $7::timestamptz)
       AND (m.at, m.id) > (GREATEST($6::timestamptz, $7::timestamptz),
                           CASE WHEN $7::timestamptz >= $6::timestamptz THEN $8::bigint ELSE -1 END)
       AND m.at < $9::timestamptz
     ORDER BY m.at, m.id
     LIMIT $10)
  SELECT ${movementColumns(format)}
    FROM page m
    JOIN items i ON i.id = m.item_id
    JOIN warehouses w ON w.id = m.warehouse_id
    JOIN locations l ON l.id = m.location_id
   ORDER BY m.at, m.id`;

type MovementRow = MovementView & { cursor: MovementCursor };
const statementsOf = (name: string, ofItem: boolean): Record<QuantityFormat, PreparedStatement<MovementRow>> => ({
  number: new PreparedStatement<MovementRow>(name, movementsSql('number', ofItem)),
  decimal: new PreparedStatement<MovementRow>(`${name}-decimal`, movementsSql('decimal', ofItem)),
});
/** One item's movements (index (tenant, item, at, id)), and every item's (index (tenant, at, id)). */
const itemStatements = statementsOf('stock-movements-of-item', true);
const tenantStatements = statementsOf('stock-movements-of-tenant', false);

/**
 * Reads of the inventory ledger: a tenant's movements, oldest first, in keyset pages over (at, id), each
 * filter served by an index (one item: (tenant, item, at, id); none: (tenant, at, id)), each a named prepared
 * statement as the inquiries are; on a read replica when routed, like the other lists.
 */
export class MovementsRepository {
  constructor(private readonly db: Database) {}

  async resolve(
    tenantId: string,
    query: Pick<MovementsQuery, 'sku' | 'warehouseCode' | 'locationCode'>,
  ): Promise<MovementFilterIds> {
    const [row] = await routedRead(this.db, (from) =>
      from.sequelize.query<{ itemId: string | null; warehouseId: string | null; locationIds: string[] | null }>(
        `WITH warehouse AS (SELECT id FROM warehouses WHERE tenant_id = $1 AND code = $3)
         SELECT (SELECT id FROM items WHERE tenant_id = $1 AND sku = $2) AS "itemId",
                (SELECT id FROM warehouse) AS "warehouseId",
                CASE WHEN $4::text IS NOT NULL THEN ARRAY(
                  SELECT id FROM locations
                   WHERE tenant_id = $1 AND code = $4 AND ($3::text IS NULL OR warehouse_id = (SELECT id FROM warehouse)))
                END AS "locationIds"`,
        {
          bind: [tenantId, query.sku ?? null, query.warehouseCode ?? null, query.locationCode ?? null],
          type: QueryTypes.SELECT,
        },
      ),
    );
    return {
      itemId: row!.itemId,
      warehouseId: row!.warehouseId,
      locationIds: row!.locationIds,
      itemKnown: query.sku === undefined || row!.itemId !== null,
      warehouseKnown: query.warehouseCode === undefined || row!.warehouseId !== null,
    };
  }

  async list(
    tenantId: string,
    ids: MovementFilterIds,
    query: MovementsQuery,
    format: QuantityFormat,
  ): Promise<(MovementView & { cursor: MovementCursor })[]> {
    const bind = [
      tenantId,
      ids.warehouseId,
      ids.locationIds,
      query.lotNo ?? null,
      query.cause ?? null,
      query.since ?? '-infinity',
      query.cursor?.at ?? '-infinity',
      query.cursor?.id ?? -1,
      query.until ?? 'infinity',
      query.limit + 1,
    ];
    return routedRead(this.db, (from) =>
      ids.itemId === null
        ? tenantStatements[format].rows(from.sequelize, bind)
        : itemStatements[format].rows(from.sequelize, [...bind, ids.itemId]),
    );
  }
}
