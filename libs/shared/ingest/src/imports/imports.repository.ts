import { pipeline } from 'node:stream/promises';
import type { Readable, Transform } from 'node:stream';
import pg from 'pg';
import copyStreams from 'pg-copy-streams';
import { QueryTypes, type Transaction } from 'sequelize';
import {
  activeTraceCarrier,
  boundedConnection,
  type Database,
  type DatabaseTarget,
  type ErrorCode,
  type TraceCarrier,
} from '@wms/platform';
import type { ImportFormat } from './import-format.js';

export type ImportState = 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';

/** Who uploaded an import: an API key (integration API) or a portal user. */
export type ImportOwner = { apiKeyId: string } | { userId: string };

export interface NewImport {
  id: string;
  tenantId: string;
  owner: ImportOwner;
  entity: string;
  format: ImportFormat;
  chunkRows: number;
  requestId: string;
}

export interface StoredImport {
  id: string;
  tenantId: string;
  apiKeyId: string | null;
  userId: string | null;
  entity: string;
  format: ImportFormat;
  columns: string | null;
  state: ImportState;
  total: number;
  chunkRows: number;
  requestId: string;
  error: string | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
}

/** An import with the counts of its written chunks. */
export interface ImportProgress extends StoredImport {
  processed: number;
  created: number;
  updated: number;
  failed: number;
}

export interface StagedRow {
  n: number;
  line: number;
  body: string;
}

export interface RowError {
  n: number;
  line: number;
  key: string;
  /** A code of the error catalogue, as the refused row's answer would carry it. */
  code: ErrorCode;
  message: string;
  details: unknown;
}

export interface ChunkCounts {
  created: number;
  updated: number;
  failed: number;
}

const IMPORT_COLUMNS = `i.id, i.tenant_id AS "tenantId", i.api_key_id AS "apiKeyId", i.user_id AS "userId", i.entity,
  i.format, i.columns, i.state, i.total, i.chunk_rows AS "chunkRows", i.request_id AS "requestId", i.error,
  i.created_at AS "createdAt", i.started_at AS "startedAt", i.finished_at AS "finishedAt"`;

const PROGRESS = `${IMPORT_COLUMNS},
  coalesce(sum(c.last_n - c.first_n + 1) FILTER (WHERE c.done), 0)::int AS processed,
  coalesce(sum(c.created), 0)::int AS created, coalesce(sum(c.updated), 0)::int AS updated,
  coalesce(sum(c.failed), 0)::int AS failed`;

/** The imports tables: jobs, their staged rows, chunks and failed rows. */
export class ImportsRepository {
  constructor(
    private readonly db: Database,
    private readonly database: DatabaseTarget,
  ) {}

  /**
   * Stores an upload in one transaction on a connection of its own: `streams` (the body, then the stages
   * that turn it into COPY text while it streams in) go into import_rows through COPY, then `finish` says what the rows came to (it may
   * throw to store nothing), then the job and its chunks are inserted. Nothing is visible before the
   * commit, and a body that fails midway rolls everything back.
   */
  async store(
    job: NewImport,
    streams: [Readable, ...Transform[]],
    finish: (total: number) => { columns: string[] | null },
  ): Promise<{ total: number }> {
    // No statement timeout: the COPY lasts as long as the body streams, which the upload's limits bound.
    const client = new pg.Client(boundedConnection(this.database.databaseUrl, this.database, 'copy'));
    client.on('error', () => undefined);
    await client.connect();
    try {
      await client.query('BEGIN');
      const copy = client.query(copyStreams.from('COPY import_rows (import_id, n, line, body) FROM STDIN'));
      await pipeline([...streams, copy]);
      const total = copy.rowCount;
      const { columns } = finish(total);
      const owner = job.owner;
      const trace = activeTraceCarrier();
      await client.query(
        `INSERT INTO imports (id, tenant_id, api_key_id, user_id, entity, format, columns, total, chunk_rows, request_id,
                              trace_context)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
        [
          job.id,
          job.tenantId,
          'apiKeyId' in owner ? owner.apiKeyId : null,
          'userId' in owner ? owner.userId : null,
          job.entity,
          job.format,
          columns ? JSON.stringify(columns) : null,
          total,
          job.chunkRows,
          job.requestId,
          // The upload's trace: its chunks, written turn by turn later, are spans of it.
          trace ? JSON.stringify(trace) : null,
        ],
      );
      await client.query(
        `INSERT INTO import_chunks (import_id, chunk, first_n, last_n)
         SELECT $1, c, c * $2 + 1, least((c + 1) * $2, $3) FROM generate_series(0, ($3 - 1) / $2) AS c`,
        [job.id, job.chunkRows, total],
      );
      await client.query('COMMIT');
      return { total };
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  /** Imports of this owner queued or running. */
  async unfinishedOf(owner: ImportOwner): Promise<number> {
    const [column, id] = 'apiKeyId' in owner ? ['api_key_id', owner.apiKeyId] : ['user_id', owner.userId];
    const rows = await this.db.sequelize.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM imports WHERE ${column} = $1 AND state IN ('queued', 'running')`,
      { bind: [id], type: QueryTypes.SELECT },
    );
    return rows[0]!.n;
  }

  /** The import with the W3C context of its upload, for the runner's chunk spans. */
  async load(id: string): Promise<(StoredImport & { traceContext: TraceCarrier | null }) | null> {
    const rows = await this.db.sequelize.query<StoredImport & { traceContext: TraceCarrier | null }>(
      `SELECT ${IMPORT_COLUMNS}, i.trace_context AS "traceContext" FROM imports i WHERE i.id = $1`,
      {
        bind: [id],
        type: QueryTypes.SELECT,
      },
    );
    return rows[0] ?? null;
  }

  async progress(id: string, transaction?: Transaction): Promise<ImportProgress | null> {
    const rows = await this.db.sequelize.query<ImportProgress>(
      `SELECT ${PROGRESS} FROM imports i LEFT JOIN import_chunks c ON c.import_id = i.id
        WHERE i.id = $1 GROUP BY i.id`,
      { bind: [id], type: QueryTypes.SELECT, transaction },
    );
    return rows[0] ?? null;
  }

  /** A tenant's imports (every tenant's for null) of the entities given, newest first, with their progress. */
  async list(tenantId: string | null, entities: string[], limit: number): Promise<ImportProgress[]> {
    return this.db.sequelize.query<ImportProgress>(
      `SELECT ${PROGRESS} FROM (
         SELECT * FROM imports WHERE ($1::uuid IS NULL OR tenant_id = $1) AND entity = ANY($3::text[])
          ORDER BY created_at DESC LIMIT $2) i
         LEFT JOIN import_chunks c ON c.import_id = i.id
        GROUP BY i.id, i.tenant_id, i.api_key_id, i.user_id, i.entity, i.format, i.columns, i.state, i.total,
                 i.chunk_rows, i.request_id, i.error, i.created_at, i.started_at, i.finished_at
        ORDER BY i.created_at DESC`,
      { bind: [tenantId, limit, entities], type: QueryTypes.SELECT },
    );
  }

  /** A chunk not yet written; null when it is written. */
  async pendingChunk(id: string, chunk: number): Promise<{ chunk: number; firstN: number; lastN: number } | null> {
    const rows = await this.db.sequelize.query<{ chunk: number; firstN: number; lastN: number }>(
      `SELECT chunk, first_n AS "firstN", last_n AS "lastN" FROM import_chunks
        WHERE import_id = $1 AND chunk = $2 AND NOT done`,
      { bind: [id, chunk], type: QueryTypes.SELECT },
    );
    return rows[0] ?? null;
  }

  async rows(id: string, firstN: number, lastN: number): Promise<StagedRow[]> {
    return this.db.sequelize.query<StagedRow>(
      'SELECT n, line, body FROM import_rows WHERE import_id = $1 AND n BETWEEN $2 AND $3 ORDER BY n',
      { bind: [id, firstN, lastN], type: QueryTypes.SELECT },
    );
  }

  async markRunning(id: string): Promise<void> {
    await this.db.sequelize.query(
      `UPDATE imports SET state = 'running', started_at = now() WHERE id = $1 AND state = 'queued'`,
      { bind: [id] },
    );
  }

  /**
   * Locks a chunk not yet written of an import still to run, in the transaction that writes it (a second
   * run of the chunk's job waits for the first). False when it was written, or the import was cancelled or
   * failed.
   */
  async claimChunk(id: string, chunk: number, transaction: Transaction): Promise<boolean> {
    const rows = await this.db.sequelize.query(
      `SELECT 1 FROM import_chunks c JOIN imports i ON i.id = c.import_id
        WHERE c.import_id = $1 AND c.chunk = $2 AND NOT c.done AND i.state IN ('queued', 'running')
        FOR UPDATE OF c`,
      { bind: [id, chunk], type: QueryTypes.SELECT, transaction },
    );
    return rows.length === 1;
  }

  /** Records a written chunk: its failed rows and counts, in the transaction of its writes. */
  async completeChunk(
    id: string,
    chunk: number,
    counts: ChunkCounts,
    errors: RowError[],
    transaction: Transaction,
  ): Promise<void> {
    if (errors.length)
      await this.db.sequelize.query(
        `INSERT INTO import_errors (import_id, n, line, key, code, message, details)
         SELECT $1, r.n, r.line, r.key, r.code, r.message, r.details
           FROM json_to_recordset($2::json) AS r(n integer, line integer, key text, code text, message text, details jsonb)`,
        { bind: [id, JSON.stringify(errors)], transaction },
      );
    await this.db.sequelize.query(
      `UPDATE import_chunks SET done = true, created = $3, updated = $4, failed = $5, finished_at = now()
        WHERE import_id = $1 AND chunk = $2`,
      { bind: [id, chunk, counts.created, counts.updated, counts.failed], transaction },
    );
  }

  /**
   * After a chunk was recorded, in its transaction: when no chunk is left, the import is completed and its
   * progress returned (the import's row lock orders the last chunks of several workers, so exactly one
   * sees none left). Null while chunks remain or when the import is no longer running.
   */
  async completeIfLast(id: string, transaction: Transaction): Promise<ImportProgress | null> {
    const locked = await this.db.sequelize.query<{ state: ImportState }>(
      'SELECT state FROM imports WHERE id = $1 FOR UPDATE',
      { bind: [id], type: QueryTypes.SELECT, transaction },
    );
    if (!locked[0] || !['queued', 'running'].includes(locked[0].state)) return null;
    const left = await this.db.sequelize.query(
      'SELECT 1 FROM import_chunks WHERE import_id = $1 AND NOT done LIMIT 1',
      { bind: [id], type: QueryTypes.SELECT, transaction },
    );
    if (left.length) return null;
    await this.db.sequelize.query(
      `UPDATE imports SET state = 'completed', finished_at = now(), started_at = coalesce(started_at, now())
        WHERE id = $1`,
      { bind: [id], transaction },
    );
    return this.progress(id, transaction);
  }

  /** A chunk's write failed: counted, so that one that never succeeds fails the import. Returns the attempts. */
  async chunkFailed(id: string, chunk: number): Promise<number> {
    const rows = await this.db.sequelize.query<{ attempts: number }>(
      `UPDATE import_chunks SET attempts = attempts + 1 WHERE import_id = $1 AND chunk = $2 RETURNING attempts`,
      { bind: [id, chunk], type: QueryTypes.SELECT },
    );
    return rows[0]?.attempts ?? 0;
  }

  /**
   * Ends an import that is queued or running (cancelled or failed), in the caller's unit of work; answers its
   * progress as it ended, or null when it had finished.
   */
  async end(
    id: string,
    state: 'cancelled' | 'failed',
    error: string | undefined,
    transaction: Transaction,
  ): Promise<ImportProgress | null> {
    const rows = await this.db.sequelize.query(
      `UPDATE imports SET state = $2, error = $3, finished_at = now() WHERE id = $1 AND state IN ('queued', 'running')
       RETURNING id`,
      { bind: [id, state, error?.slice(0, 1_000) ?? null], type: QueryTypes.SELECT, transaction },
    );
    if (rows.length !== 1) return null;
    return (await this.progress(id, transaction))!;
  }

  /** Failed rows after position `afterN`, with the rows as uploaded, in file order. */
  async errorsPage(id: string, afterN: number, limit: number): Promise<Array<RowError & { body: string | null }>> {
    return this.db.sequelize.query(
      `SELECT e.n, e.line, e.key, e.code, e.message, e.details, r.body
         FROM import_errors e LEFT JOIN import_rows r ON r.import_id = e.import_id AND r.n = e.n
        WHERE e.import_id = $1 AND e.n > $2 ORDER BY e.n LIMIT $3`,
      { bind: [id, afterN, limit], type: QueryTypes.SELECT },
    );
  }

  /**
   * Deletes one finished import older than the retention, with its staged rows, chunks and failed rows;
   * false when there is none. Rows go a bounded number per call (the caller's unit of work), so a large
   * import takes several calls.
   */
  async purgeOne(retentionSeconds: number, rowLimit: number, transaction: Transaction): Promise<boolean> {
    const found = await this.db.sequelize.query<{ id: string }>(
      `SELECT id FROM imports WHERE finished_at <= now() - $1 * interval '1 second'
        ORDER BY finished_at LIMIT 1 FOR UPDATE SKIP LOCKED`,
      { bind: [retentionSeconds], type: QueryTypes.SELECT, transaction },
    );
    const id = found[0]?.id;
    if (!id) return false;
    const deleted = await this.db.sequelize.query(
      `DELETE FROM import_rows WHERE import_id = $1 AND n IN (
         SELECT n FROM import_rows WHERE import_id = $1 ORDER BY n LIMIT $2) RETURNING n`,
      { bind: [id, rowLimit], type: QueryTypes.SELECT, transaction },
    );
    if (deleted.length < rowLimit)
      await this.db.sequelize.query('DELETE FROM imports WHERE id = $1', { bind: [id], transaction });
    return true;
  }
}
