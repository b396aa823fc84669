import { QueryTypes } from 'sequelize';
import { routedRead, type Database, type QuantityFormat } from '@wms/platform';
import { isoSql, qtySql } from '../inventory/index.js';
import type { MovementCursor, MovementView, MovementsQuery } from './movement.schemas.js';

/** The references a movements query names, resolved in the tenant; null where one is unknown. */
export interface MovementFilterIds {
  itemId: string | null;
  warehouseId: string | null;
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
 * Reads of the inventory ledger: a tenant's movements, oldest first, in keyset pages over (at, id), each
 * filter served by an index (one item: (tenant, item, at, id); none: (tenant, at, id)); on a read replica
 * when routed, like the other lists.
 */
export class MovementsRepository {
  constructor(private readonly db: Database) {}

  async resolve(tenantId: string, query: Pick<MovementsQuery, 'sku' | 'warehouseCode'>): Promise<MovementFilterIds> {
    const [row] = await routedRead(this.db, (from) =>
      from.sequelize.query<{ itemId: string | null; warehouseId: string | null }>(
        `SELECT (SELECT id FROM items WHERE tenant_id = $1 AND sku = $2) AS "itemId",
                (SELECT id FROM warehouses WHERE tenant_id = $1 AND code = $3) AS "warehouseId"`,
        { bind: [tenantId, query.sku ?? null, query.warehouseCode ?? null], type: QueryTypes.SELECT },
      ),
    );
    return {
      itemId: row!.itemId,
      warehouseId: row!.warehouseId,
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
    return routedRead(this.db, (from) =>
      from.sequelize.query<MovementView & { cursor: MovementCursor }>(
        `SELECT ${movementColumns(format)}
           FROM stock_movements m
           JOIN items i ON i.id = m.item_id
           JOIN warehouses w ON w.id = m.warehouse_id
           JOIN locations l ON l.id = m.location_id
          WHERE m.tenant_id = $1
            AND ($2::uuid IS NULL OR m.item_id = $2)
            AND ($3::uuid IS NULL OR m.warehouse_id = $3)
            AND ($4::text IS NULL OR l.code = $4)
            AND ($5::text IS NULL OR m.lot_no = $5)
            AND ($6::text IS NULL OR m.cause = $6)
            AND ($7::timestamptz IS NULL OR m.at >= $7)
            AND ($8::timestamptz IS NULL OR m.at < $8)
            AND ($9::timestamptz IS NULL OR (m.at, m.id) > ($9::timestamptz, $10::bigint))
          ORDER BY m.at, m.id
          LIMIT $11`,
        {
          bind: [
            tenantId,
            ids.itemId,
            ids.warehouseId,
            query.locationCode ?? null,
            query.lotNo ?? null,
            query.cause ?? null,
            query.since ?? null,
            query.until ?? null,
            query.cursor?.at ?? null,
            query.cursor?.id ?? null,
            query.limit + 1,
          ],
          type: QueryTypes.SELECT,
        },
      ),
    );
  }
}
