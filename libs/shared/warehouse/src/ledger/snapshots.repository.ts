import { QueryTypes } from 'sequelize';
import type { Database, UnitOfWork } from '@wms/platform';
import { dateSql, isoSql, qtySql } from '../inventory/index.js';
import { balanceAsOfSql } from '../writes/index.js';

export const SNAPSHOT_STATES = ['queued', 'running', 'completed', 'failed'] as const;
export type SnapshotState = (typeof SNAPSHOT_STATES)[number];

export interface StoredSnapshot {
  id: string;
  tenantId: string;
  apiKeyId: string | null;
  warehouseCode: string | null;
  asOf: string;
  state: SnapshotState;
  rows: number | null;
  error: string | null;
  createdAt: string;
  finishedAt: string | null;
}

/** A snapshot as the job dispatcher hands it to BullMQ. */
export interface SnapshotDispatchUnit {
  id: string;
  handedBefore: boolean;
}

/** Lines of the NDJSON file per stored chunk. */
const CHUNK_LINES = 1_000;

const SNAPSHOT_COLUMNS = `s.id, s.tenant_id AS "tenantId", s.api_key_id AS "apiKeyId", w.code AS "warehouseCode",
  ${isoSql('s.as_of')} AS "asOf", s.state, s.rows, s.error, ${isoSql('s.created_at')} AS "createdAt",
  ${isoSql('s.finished_at')} AS "finishedAt"`;

/**
 * The file of a snapshot, written by one statement: every stock row of the tenant (of its warehouse, when
 * one is named) with a balance at the snapshot's time, one JSON line each in warehouse, location, sku and
 * lot order, its quantities exact decimal strings (read out as the reader's version sends them), stored in
 * chunks of CHUNK_LINES lines.
 */
const WRITE_FILE_SQL = `WITH snap AS (SELECT id, tenant_id, warehouse_id, as_of FROM stock_snapshots WHERE id = $1),
  lines AS (
    SELECT row_number() OVER (ORDER BY w.code, l.code, i.sku, s.lot_no) AS n,
           json_build_object('warehouseCode', w.code, 'locationCode', l.code, 'sku', i.sku,
             'lotNo', NULLIF(s.lot_no, ''), 'expiryDate', ${dateSql('s.expiry_date')},
             'qtyOnHand', ${qtySql('b.qty_on_hand', 'decimal')}, 'qtyAllocated', ${qtySql('b.qty_allocated', 'decimal')},
             'qtyAvailable', ${qtySql('b.qty_on_hand - b.qty_allocated', 'decimal')})::text AS line
      FROM snap
      JOIN stock_rows s ON s.tenant_id = snap.tenant_id AND (snap.warehouse_id IS NULL OR s.warehouse_id = snap.warehouse_id)
      JOIN items i ON i.id = s.item_id
      JOIN warehouses w ON w.id = s.warehouse_id
      JOIN locations l ON l.id = s.location_id
      CROSS JOIN LATERAL ${balanceAsOfSql('s', 'snap.as_of')} b
     WHERE b.qty_on_hand <> 0 OR b.qty_allocated <> 0),
  chunks AS (
    INSERT INTO stock_snapshot_chunks (snapshot_id, chunk_no, body)
    SELECT $1, (n - 1) / ${CHUNK_LINES}, string_agg(line, E'\\n' ORDER BY n) || E'\\n'
      FROM lines GROUP BY (n - 1) / ${CHUNK_LINES})
  UPDATE stock_snapshots SET state = 'completed', rows = (SELECT count(*) FROM lines), error = NULL, finished_at = now()
   WHERE id = $1`;

/** Stock snapshot exports: their records and their files' chunks. */
export class SnapshotsRepository {
  constructor(private readonly db: Database) {}

  async create(input: {
    id: string;
    tenantId: string;
    apiKeyId: string | null;
    warehouseId: string | null;
    asOf: string;
  }): Promise<void> {
    await this.db.sequelize.query(
      `INSERT INTO stock_snapshots (id, tenant_id, api_key_id, warehouse_id, as_of, dispatched_at)
       VALUES ($1, $2, $3, $4, $5, now())`,
      { bind: [input.id, input.tenantId, input.apiKeyId, input.warehouseId, input.asOf], type: QueryTypes.INSERT },
    );
  }

  async find(id: string): Promise<StoredSnapshot | null> {
    const rows = await this.db.sequelize.query<StoredSnapshot>(
      `SELECT ${SNAPSHOT_COLUMNS} FROM stock_snapshots s LEFT JOIN warehouses w ON w.id = s.warehouse_id WHERE s.id = $1`,
      { bind: [id], type: QueryTypes.SELECT },
    );
    return rows[0] ?? null;
  }

  async warehouseId(tenantId: string, code: string): Promise<string | null> {
    const rows = await this.db.sequelize.query<{ id: string }>(
      'SELECT id FROM warehouses WHERE tenant_id = $1 AND code = $2',
      { bind: [tenantId, code], type: QueryTypes.SELECT },
    );
    return rows[0]?.id ?? null;
  }

  /**
   * Writes the snapshot's file in the caller's unit of work (one for the whole file): what an earlier run
   * left is deleted first, so a retried job writes it once. A snapshot already completed is left as it is.
   */
  async writeFile(id: string, transaction: UnitOfWork): Promise<void> {
    const [claimed] = await this.db.sequelize.query<{ id: string }>(
      "UPDATE stock_snapshots SET state = 'running' WHERE id = $1 AND state <> 'completed' RETURNING id",
      { bind: [id], type: QueryTypes.SELECT, transaction },
    );
    if (!claimed) return;
    await this.db.sequelize.query('DELETE FROM stock_snapshot_chunks WHERE snapshot_id = $1', {
      bind: [id],
      transaction,
    });
    await this.db.sequelize.query(WRITE_FILE_SQL, { bind: [id], transaction });
  }

  /** The snapshot's job could not be handed to BullMQ: the dispatcher hands it on its next pass. */
  async notDispatched(id: string): Promise<void> {
    await this.db.sequelize.query('UPDATE stock_snapshots SET dispatched_at = NULL WHERE id = $1', { bind: [id] });
  }

  /**
   * Locks up to `limit` unfinished snapshots whose job was never handed to BullMQ, or handed more than
   * `staleMs` ago, runs `hand` over them and notes the hand-over, in the caller's unit of work (the bulk
   * jobs' way: the rows stay locked while they are handed).
   */
  async dispatch(
    limit: number,
    staleMs: number,
    hand: (units: SnapshotDispatchUnit[]) => Promise<string[]>,
    transaction: UnitOfWork,
  ): Promise<number> {
    const units = await this.db.sequelize.query<SnapshotDispatchUnit>(
      `SELECT id, dispatched_at IS NOT NULL AS "handedBefore" FROM stock_snapshots
        WHERE state IN ('queued', 'running')
          AND (dispatched_at IS NULL OR dispatched_at <= now() - $2 * interval '1 millisecond')
        ORDER BY dispatched_at NULLS FIRST
        LIMIT $1
        FOR UPDATE SKIP LOCKED`,
      { bind: [limit, staleMs], type: QueryTypes.SELECT, transaction },
    );
    if (!units.length) return 0;
    const handed = await hand(units);
    await this.db.sequelize.query('UPDATE stock_snapshots SET dispatched_at = now() WHERE id = ANY($1::text[])', {
      bind: [units.map((unit) => unit.id)],
      transaction,
    });
    return handed.length;
  }

  async fail(id: string, error: string): Promise<void> {
    await this.db.sequelize.query(
      "UPDATE stock_snapshots SET state = 'failed', error = $2, finished_at = now() WHERE id = $1 AND state <> 'completed'",
      { bind: [id, error.slice(0, 1_000)] },
    );
  }

  /** The file's chunks from `from` on, at most `count`. */
  async chunks(id: string, from: number, count: number): Promise<{ chunkNo: number; body: string }[]> {
    return this.db.sequelize.query<{ chunkNo: number; body: string }>(
      `SELECT chunk_no AS "chunkNo", body FROM stock_snapshot_chunks
        WHERE snapshot_id = $1 AND chunk_no >= $2 ORDER BY chunk_no LIMIT $3`,
      { bind: [id, from, count], type: QueryTypes.SELECT },
    );
  }

  /** Deletes snapshots (and their files) created more than `days` days ago, at most `limit`. */
  async purgeOlderThan(days: number, limit: number): Promise<number> {
    const rows = await this.db.sequelize.query<{ id: string }>(
      `DELETE FROM stock_snapshots WHERE id IN (
         SELECT id FROM stock_snapshots WHERE created_at < now() - make_interval(days => $1) ORDER BY created_at LIMIT $2)
       RETURNING id`,
      { bind: [days, limit], type: QueryTypes.SELECT },
    );
    return rows.length;
  }
}
