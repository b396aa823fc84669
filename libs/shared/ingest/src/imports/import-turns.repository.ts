import { QueryTypes, type Transaction } from 'sequelize';
import type { Database } from '@wms/platform';
import { nextTurnSql, type TurnUnits } from '../dispatch/index.js';
import { importChunkJobId, type QueuedChunk } from './imports.contract.js';

/** A chunk queued at its tenant's turn and not yet written, of an import still to run (dispatch/tenant-turns.ts). */
const QUEUED_CHUNKS: TurnUnits = {
  from: 'import_chunks c JOIN imports i ON i.id = c.import_id',
  queued: "c.turn IS NOT NULL AND NOT c.done AND i.state IN ('queued', 'running')",
  tenant: 'i.tenant_id',
  turn: 'c.turn',
};

/** A queued chunk as the dispatcher sees it. */
export interface DispatchChunk extends QueuedChunk {
  handedBefore: boolean;
}

/**
 * The import chunks' turns (dispatch/tenant-turns.ts): which chunks are queued for the workers, at which
 * turn, and whether BullMQ has them. Over the imports tables, beside ImportsRepository.
 */
export class ImportTurnsRepository {
  constructor(private readonly db: Database) {}

  /**
   * Tenants with an unfinished import that have a chunk not yet queued and fewer than `chains` queued: the
   * dispatcher queues their turns (a worker that died between a chunk and the next, an upload whose turns
   * were not queued, an import that ended with chunks queued).
   */
  async tenantsShortOfTurns(chains: number, limit: number): Promise<string[]> {
    const rows = await this.db.sequelize.query<{ tenantId: string }>(
      `SELECT i.tenant_id AS "tenantId" FROM imports i JOIN import_chunks c ON c.import_id = i.id AND NOT c.done
        WHERE i.state IN ('queued', 'running')
        GROUP BY i.tenant_id
       HAVING count(*) FILTER (WHERE c.turn IS NOT NULL) < $1 AND bool_or(c.turn IS NULL)
        LIMIT $2`,
      { bind: [chains, limit], type: QueryTypes.SELECT },
    );
    return rows.map((row) => row.tenantId);
  }

  /**
   * Queues the tenant's next chunks at its turns until it has `chains` queued (or none is left): each from
   * its unfinished import whose last turn is oldest (one never served first, then the oldest upload), so
   * its files share its turns. In the caller's unit of work (a chunk's, so that the chunk written and the
   * next queued commit together, or one of the queuing's own); the tenant's queuing is serialised by an
   * advisory lock. Answers
   * the chunks queued: `handing` when the caller hands them to BullMQ after the commit (else the
   * dispatcher's pass hands them at once).
   */
  async queueTurns(
    tenantId: string,
    chains: number,
    options: { transaction: Transaction; handing: boolean },
  ): Promise<QueuedChunk[]> {
    const { transaction, handing } = options;
    const query = <Row extends object>(sql: string, bind: unknown[]) =>
      this.db.sequelize.query<Row>(sql, { bind, type: QueryTypes.SELECT, transaction });
    await query(`SELECT pg_advisory_xact_lock(hashtext('import-turns'), hashtext($1))`, [tenantId]);
    const [{ queued }] = (await query<{ queued: number }>(
      `SELECT count(*)::int AS queued FROM ${QUEUED_CHUNKS.from} WHERE ${QUEUED_CHUNKS.queued} AND i.tenant_id = $1`,
      [tenantId],
    )) as [{ queued: number }];
    const added: QueuedChunk[] = [];
    for (let free = chains - queued; free > 0; free -= 1) {
      const next = await query<{ importId: string; chunk: number }>(
        `SELECT i.id AS "importId", c.chunk FROM imports i
           CROSS JOIN LATERAL (SELECT chunk FROM import_chunks
                                WHERE import_id = i.id AND NOT done AND turn IS NULL ORDER BY chunk LIMIT 1
                                  FOR UPDATE SKIP LOCKED) c
          WHERE i.tenant_id = $1 AND i.state IN ('queued', 'running')
          ORDER BY i.last_turn_at NULLS FIRST, i.created_at LIMIT 1`,
        [tenantId],
      );
      if (!next[0]) break;
      const { importId, chunk } = next[0];
      const [{ turn }] = (await query<{ turn: number }>(
        `UPDATE import_chunks SET turn = ${nextTurnSql(QUEUED_CHUNKS, '$3')},
                dispatched_at = CASE WHEN $4 THEN now() END
          WHERE import_id = $1 AND chunk = $2 RETURNING turn`,
        [importId, chunk, tenantId, handing],
      )) as [{ turn: number }];
      await query('UPDATE imports SET last_turn_at = clock_timestamp() WHERE id = $1 RETURNING id', [importId]);
      added.push({ id: importChunkJobId(importId, chunk), tenantId, importId, chunk, turn });
    }
    return added;
  }

  /** Queued chunks could not be handed to BullMQ: the dispatcher hands them on its next pass. */
  async notDispatched(chunks: QueuedChunk[]): Promise<void> {
    if (!chunks.length) return;
    await this.db.sequelize.query(
      `UPDATE import_chunks SET dispatched_at = NULL
        WHERE (import_id, chunk) IN (SELECT * FROM unnest($1::text[], $2::int[]))`,
      { bind: [chunks.map((chunk) => chunk.importId), chunks.map((chunk) => chunk.chunk)] },
    );
  }

  /**
   * Runs `hand` over up to `limit` queued chunks of unfinished imports never handed to BullMQ or handed
   * more than `staleMs` ago, locked (SKIP LOCKED: a chunk being written is locked by its writer, and
   * several dispatchers share the work), and records the hand-over in the same transaction, the caller's
   * unit of work.
   */
  async dispatch(
    limit: number,
    staleMs: number,
    hand: (chunks: DispatchChunk[]) => Promise<string[]>,
    transaction: Transaction,
  ): Promise<number> {
    const rows = await this.db.sequelize.query<Omit<DispatchChunk, 'id'>>(
      `SELECT i.tenant_id AS "tenantId", c.import_id AS "importId", c.chunk, c.turn,
              c.dispatched_at IS NOT NULL AS "handedBefore"
         FROM ${QUEUED_CHUNKS.from}
        WHERE ${QUEUED_CHUNKS.queued}
          AND (c.dispatched_at IS NULL OR c.dispatched_at <= now() - $2 * interval '1 millisecond')
        ORDER BY c.dispatched_at NULLS FIRST
        LIMIT $1
        FOR UPDATE OF c SKIP LOCKED`,
      { bind: [limit, staleMs], type: QueryTypes.SELECT, transaction },
    );
    if (!rows.length) return 0;
    const chunks = rows.map((row) => ({ ...row, id: importChunkJobId(row.importId, row.chunk) }));
    const handed = await hand(chunks);
    await this.db.sequelize.query(
      `UPDATE import_chunks SET dispatched_at = now()
        WHERE (import_id, chunk) IN (SELECT * FROM unnest($1::text[], $2::int[]))`,
      { bind: [rows.map((row) => row.importId), rows.map((row) => row.chunk)], transaction },
    );
    return handed.length;
  }
}
