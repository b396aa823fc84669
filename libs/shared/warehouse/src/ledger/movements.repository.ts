import { QueryTypes } from 'sequelize';
import { PreparedStatement, routedRead, type Database, type QuantityFormat } from '@wms/platform';
import { qtyColumnSql } from '../inventory/index.js';
import type { MovementCursor, MovementView, MovementsQuery } from './movement.schemas.js';

/** Whether the references a movements query names exist in the tenant (true for one not named). */
export interface MovementReferences {
  itemKnown: boolean;
  warehouseKnown: boolean;
}

/**
 * An entry as the statement reads it: the answer's columns with the caller's ids for its caller, and its time
 * to the microsecond (the cursor's precision); `toMovement` makes the answer's shape from it.
 */
type MovementRecord = Omit<MovementView, 'caller'> & { apiKeyId: string | null; userId: string | null };

const movementColumns = (format: QuantityFormat) => `m.id::text AS id,
  to_char(m.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at, w.code AS "warehouseCode",
  l.code AS "locationCode", i.sku, NULLIF(m.lot_no, '') AS "lotNo",
  ${qtyColumnSql('m.qty_on_hand_delta', format)} AS "qtyOnHandDelta", ${qtyColumnSql('m.qty_allocated_delta', format)} AS "qtyAllocatedDelta",
  ${qtyColumnSql('m.qty_on_hand_after', format)} AS "qtyOnHandAfter", ${qtyColumnSql('m.qty_allocated_after', format)} AS "qtyAllocatedAfter",
  m.cause, m.document_no AS "documentNo", m.api_key_id AS "apiKeyId", m.user_id AS "userId"`;

type MovementRow = MovementView & { cursor: MovementCursor };

/** The answer's movement and its cursor; the time truncated to the millisecond, as `isoSql` writes times. */
function toMovement({ apiKeyId, userId, ...movement }: MovementRecord): MovementRow {
  return {
    ...movement,
    at: `${movement.at.slice(0, 23)}Z`,
    caller: apiKeyId ? { type: 'api_key', id: apiKeyId } : userId ? { type: 'user', id: userId } : null,
    cursor: { at: movement.at, id: movement.id },
  };
}

/**
 * A page of movements after the lower bound, oldest first. $1 tenant id, $2 warehouse code, $3 location code
 * (in that warehouse, or any), $4 lot and $5 cause (each null for any), $6 since and $9 until ('-infinity',
 * 'infinity' when open), $7 and $8 the cursor's time and id ('-infinity' and -1 without one), $10 the rows to
 * read; with `ofItem`, $11 the sku. The codes are resolved inside (an unknown one matches nothing; the
 * service tells it apart from an empty page only when the page is empty). As a prepared statement
 * PostgreSQL may plan it once, without the values, so its shape leaves no choice that needs them: the page is
 * read from the ledger alone (each filter a column of it) and only its rows are joined to their codes; the
 * lower bound is one key, the later of since and the cursor, so the index seeks to it (two bounds would leave
 * the scan to start at either), and the months before it are pruned.
 */
const movementsSql = (format: QuantityFormat, ofItem: boolean) => `
  WITH warehouse AS (SELECT id FROM warehouses WHERE tenant_id = $1 AND code = $2),
  page AS (
    SELECT * FROM stock_movements m
     WHERE m.tenant_id = $1${ofItem ? ' AND m.item_id = (SELECT id FROM items WHERE tenant_id = $1 AND sku = $11)' : ''}
       AND ($2::text IS NULL OR m.warehouse_id = (SELECT id FROM warehouse))
       AND ($3::text IS NULL OR m.location_id = ANY (ARRAY(
             SELECT l.id FROM locations l
              WHERE l.tenant_id = $1 AND l.code = $3 AND ($2::text IS NULL OR l.warehouse_id = (SELECT id FROM warehouse)))))
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

const statementsOf = (name: string, ofItem: boolean): Record<QuantityFormat, PreparedStatement<MovementRecord>> => ({
  number: new PreparedStatement<MovementRecord>(name, movementsSql('number', ofItem)),
  decimal: new PreparedStatement<MovementRecord>(`${name}-decimal`, movementsSql('decimal', ofItem)),
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

  /** Whether the sku and warehouse a query names exist: asked only when its page came back empty. */
  async references(
    tenantId: string,
    query: Pick<MovementsQuery, 'sku' | 'warehouseCode'>,
  ): Promise<MovementReferences> {
    const [row] = await routedRead(this.db, (from) =>
      from.sequelize.query<MovementReferences>(
        `SELECT ($2::text IS NULL OR EXISTS (SELECT 1 FROM items WHERE tenant_id = $1 AND sku = $2)) AS "itemKnown",
                ($3::text IS NULL OR EXISTS (SELECT 1 FROM warehouses WHERE tenant_id = $1 AND code = $3)) AS "warehouseKnown"`,
        { bind: [tenantId, query.sku ?? null, query.warehouseCode ?? null], type: QueryTypes.SELECT },
      ),
    );
    return row!;
  }

  async list(tenantId: string, query: MovementsQuery, format: QuantityFormat): Promise<MovementRow[]> {
    const bind = [
      tenantId,
      query.warehouseCode ?? null,
      query.locationCode ?? null,
      query.lotNo ?? null,
      query.cause ?? null,
      query.since ?? '-infinity',
      query.cursor?.at ?? '-infinity',
      query.cursor?.id ?? -1,
      query.until ?? 'infinity',
      query.limit + 1,
    ];
    const records = await routedRead(this.db, (from) =>
      query.sku === undefined
        ? tenantStatements[format].rows(from.sequelize, bind)
        : itemStatements[format].rows(from.sequelize, [...bind, query.sku]),
    );
    return records.map(toMovement);
  }
}
