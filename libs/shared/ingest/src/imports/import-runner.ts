import type { Transaction } from 'sequelize';
import type { Database } from '@wms/platform';
import type { AppError } from '@wms/platform';
import type { EventsService } from '@wms/events';
import {
  runBulk,
  type BulkJobHooks,
  type BulkResult,
  type BulkStages,
  type IngestHandler,
  type IngestRegistry,
} from '../integration/index.js';
import { BulkAlreadyWritten } from '@wms/warehouse';
import {
  VALIDATION_PREFERENCES,
  currentContext,
  inStoredTrace,
  runWithContext,
  toErrorDetails,
  unitOfWork,
} from '@wms/platform';
import { importStageSeconds } from '../bulk-jobs/index.js';
import { entryFromCsv } from './import-format.js';
import { appendImportEnded, endImport } from './import-events.js';
import type { ImportsRepository, RowError, StagedRow, StoredImport } from './imports.repository.js';
import type { ImportTurnsRepository } from './import-turns.repository.js';
import type { ImportChunkData, QueuedChunk } from './imports.contract.js';

/** A chunk's write failed this often (not a row's error: the write itself): the import fails. */
const MAX_CHUNK_ATTEMPTS = 5;

type Parsed = { entry: unknown } | { error: Omit<RowError, 'n' | 'line'> };

/**
 * Writes a file import chunk by chunk. A chunk's rows go through the entity's ingest handler with the same
 * validation and set-based writes as a bulk call (runBulk), in one transaction that also locks the chunk
 * (a second run of its job waits for the first), stores its failed rows, marks it written and queues its tenant's next chunk at the
 * tenant's turn: a chunk takes effect exactly once, and a worker killed midway leaves it to the next.
 */
export class ImportRunner {
  constructor(
    private readonly db: Database,
    private readonly registry: IngestRegistry,
    private readonly repository: ImportsRepository,
    private readonly turns: ImportTurnsRepository,
    private readonly events: EventsService,
    /** Chunks of one tenant queued or running at once (IMPORT_TENANT_CONCURRENCY). */
    private readonly chains: number,
    /** Called once a chunk has committed (read replicas: the chunk's rows become its owner's last write). */
    private readonly afterChunk: ((job: StoredImport) => Promise<void>) | null = null,
  ) {}

  /**
   * Writes one queued chunk and answers the tenant's chunks queued after it, for the caller to hand to
   * BullMQ. A chunk no longer to write (written, its import ended) queues the tenant's next all the same;
   * one another worker holds answers none (that worker queues them).
   */
  async runChunk(queued: ImportChunkData): Promise<QueuedChunk[]> {
    const { tenantId, importId } = queued;
    const next = () =>
      unitOfWork(this.db, (work) => this.turns.queueTurns(tenantId, this.chains, { transaction: work, handing: true }));
    const job = await this.repository.load(importId);
    if (!job || (job.state !== 'queued' && job.state !== 'running')) return next();
    const handler = this.registry.get(job.entity);
    if (!handler) {
      await this.fail(importId, `no ingest handler for ${job.entity}`);
      return next();
    }
    const chunk = await this.repository.pendingChunk(importId, queued.chunk);
    if (!chunk) return next();
    await this.repository.markRunning(importId);
    try {
      // Each chunk is a span of the upload's trace (the context stored with the import), whichever turn runs it.
      const attributes = { 'wms.import.id': job.id, 'wms.import.chunk': chunk.chunk };
      return await runWithContext({ ...currentContext(), requestId: importId }, () =>
        inStoredTrace('import chunk', job.traceContext, attributes, () => this.writeChunk(job, handler, chunk)),
      );
    } catch (error) {
      const attempts = await this.repository.chunkFailed(importId, chunk.chunk);
      if (attempts >= MAX_CHUNK_ATTEMPTS)
        await this.fail(importId, `chunk ${chunk.chunk} failed: ${(error as Error).message}`);
      throw error;
    }
  }

  /** Ends the import as failed (what was written stays) and says so with `import.completed`. */
  private async fail(importId: string, error: string): Promise<void> {
    await endImport(this.db, this.repository, this.events, { id: importId, state: 'failed', error });
  }

  /** Writes one chunk and answers the chunks queued after it; none when another worker holds or wrote it. */
  private async writeChunk(
    job: StoredImport,
    handler: IngestHandler,
    chunk: { chunk: number; firstN: number; lastN: number },
  ): Promise<QueuedChunk[]> {
    const reading = performance.now();
    const rows = await this.repository.rows(job.id, chunk.firstN, chunk.lastN);
    const parsing = performance.now();
    const columns = job.columns ? (JSON.parse(job.columns) as string[]) : null;
    const rowErrors: RowError[] = [];
    const entries: unknown[] = [];
    const written: StagedRow[] = [];
    for (const row of rows) {
      const parsed = parseRow(row, columns, job.tenantId);
      if ('error' in parsed) rowErrors.push({ n: row.n, line: row.line, ...parsed.error });
      else {
        entries.push(parsed.entry);
        written.push(row);
      }
    }
    const stages: BulkStages & { readMs: number; parseMs: number } = {
      readMs: parsing - reading,
      parseMs: performance.now() - parsing,
      validateMs: 0,
      writeMs: 0,
    };
    const writeErrors = new Map<number, AppError>();
    let queued: QueuedChunk[] = [];
    const record = async (result: BulkResult, transaction: Transaction) => {
      const errors = [...rowErrors, ...entryErrors(handler, result, entries, written, writeErrors)];
      errors.sort((a, b) => a.n - b.n);
      const counts = { created: result.created, updated: result.updated, failed: errors.length };
      await this.repository.completeChunk(job.id, chunk.chunk, counts, errors, transaction);
      // Before the import's row lock (completeIfLast): queuing takes the tenant's lock, then imports' rows.
      queued = await this.turns.queueTurns(job.tenantId, this.chains, { transaction, handing: true });
      const finished = await this.repository.completeIfLast(job.id, transaction);
      if (finished) await appendImportEnded(this.events, transaction, finished);
    };
    const hooks: BulkJobHooks = {
      claim: (transaction) => this.repository.claimChunk(job.id, chunk.chunk, transaction),
      complete: async (result, transaction) => {
        if (transaction) return record(result, transaction);
        // No entry to write (every row failed before the write): the chunk is claimed and recorded alone.
        await unitOfWork(this.db, async (own) => {
          if (!(await this.repository.claimChunk(job.id, chunk.chunk, own))) throw new BulkAlreadyWritten();
          await record(result, own);
        });
      },
    };
    try {
      await runBulk(this.db, handler, entries, {
        tenantId: job.tenantId,
        job: hooks,
        onWriteError: (index, error) => writeErrors.set(index, error),
        // The chunk's valid rows merge in one statement where the handler writes in one.
        batchSize: job.chunkRows,
        stages,
      });
      countStages(job.entity, stages);
      await this.afterChunk?.(job);
      return queued;
    } catch (error) {
      if (error instanceof BulkAlreadyWritten) return [];
      throw error;
    }
  }
}

/** A written chunk's time by stage, for the imports' throughput by stage. */
function countStages(entity: string, stages: BulkStages & { readMs: number; parseMs: number }): void {
  importStageSeconds.labels(entity, 'read').inc(stages.readMs / 1000);
  importStageSeconds.labels(entity, 'parse').inc(stages.parseMs / 1000);
  importStageSeconds.labels(entity, 'validate').inc(stages.validateMs / 1000);
  importStageSeconds.labels(entity, 'write').inc(stages.writeMs / 1000);
}

/** A staged row as an entry: its JSON line, or its CSV values by the header. A tenantId other than the import's is refused. */
function parseRow(row: StagedRow, columns: string[] | null, tenantId: string): Parsed {
  let entry: unknown;
  if (columns) {
    const values = JSON.parse(row.body) as string[];
    if (values.length !== columns.length)
      return {
        error: {
          key: '',
          code: 'VALIDATION_FAILED',
          message: `The row has ${values.length} fields; the header has ${columns.length}`,
          details: null,
        },
      };
    entry = entryFromCsv(columns, values);
  } else {
    try {
      entry = JSON.parse(row.body);
    } catch {
      return { error: { key: '', code: 'INVALID_JSON', message: 'The line is not valid JSON', details: null } };
    }
  }
  if (entry && typeof entry === 'object' && !Array.isArray(entry) && 'tenantId' in entry) {
    const { tenantId: named, ...rest } = entry as Record<string, unknown>;
    if (named !== tenantId)
      return {
        error: {
          key: '',
          code: 'TENANT_MISMATCH',
          message: 'tenantId names another tenant than the import',
          details: null,
        },
      };
    entry = rest;
  }
  return { entry };
}

/** The rows the bulk refused, with the error's code and details (a bulk result keeps only the message). */
function entryErrors(
  handler: IngestHandler,
  result: BulkResult,
  entries: unknown[],
  rows: StagedRow[],
  writeErrors: Map<number, AppError>,
): RowError[] {
  const errors: RowError[] = [];
  for (const entry of result.data) {
    if (entry.status !== 'error') continue;
    const row = rows[entry.index]!;
    const written = writeErrors.get(entry.index);
    if (written) {
      errors.push({
        n: row.n,
        line: row.line,
        key: entry.key,
        code: written.code,
        message: written.message,
        details: written.details ?? null,
      });
      continue;
    }
    const invalid = handler.entrySchema.prefs(VALIDATION_PREFERENCES).validate(entries[entry.index]).error;
    errors.push({
      n: row.n,
      line: row.line,
      key: entry.key,
      code: 'VALIDATION_FAILED',
      message: entry.error,
      details: invalid ? toErrorDetails(invalid) : null,
    });
  }
  return errors;
}
