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
import { VALIDATION_PREFERENCES, currentContext, inStoredTrace, runWithContext, toErrorDetails } from '@wms/platform';
import { importStageSeconds } from '../bulk-jobs/index.js';
import { entryFromCsv } from './import-format.js';
import { appendImportEnded } from './import-events.js';
import type { ImportsRepository, RowError, StagedRow, StoredImport } from './imports.repository.js';

/** A chunk's write failed this often (not a row's error: the write itself): the import fails. */
const MAX_CHUNK_ATTEMPTS = 5;

/** A tenant's unfinished imports a turn looks at, in turn order, for a chunk to write. */
const TURN_CANDIDATES = 50;

type Parsed = { entry: unknown } | { error: Omit<RowError, 'n' | 'line'> };

/**
 * Writes a file import chunk by chunk. A chunk's rows go through the entity's ingest handler with the same
 * validation and set-based writes as a bulk call (runBulk), in one transaction that also locks the chunk
 * (SKIP LOCKED: workers share a file), stores its failed rows and marks it written: a chunk takes effect
 * exactly once, and a worker killed midway leaves it to the next.
 */
export class ImportRunner {
  constructor(
    private readonly db: Database,
    private readonly registry: IngestRegistry,
    private readonly repository: ImportsRepository,
    private readonly events: EventsService,
    /** The chains of turns each tenant has (IMPORT_TENANT_CONCURRENCY): a turn's share of a file is every chains-th chunk. */
    private readonly chains: number,
    /** Called once a chunk has committed (read replicas: the chunk's rows become its owner's last write). */
    private readonly afterChunk: ((job: StoredImport) => Promise<void>) | null = null,
  ) {}

  /**
   * One turn of a tenant: writes one chunk of its unfinished import whose last turn is oldest (the next
   * one when that has no chunk left for this turn). 'none' when no import of the tenant has a chunk left.
   */
  async runTurn(tenantId: string, slot: number): Promise<'written' | 'none'> {
    for (const importId of await this.repository.turnOrder(tenantId, TURN_CANDIDATES)) {
      // Noted before the write, so the tenant's other chain reaches for another of its files meanwhile.
      await this.repository.tookTurn(importId);
      const outcome = await runWithContext({ ...currentContext(), requestId: importId }, () =>
        this.runImport(importId, slot),
      );
      if (outcome === 'written') return 'written';
    }
    return 'none';
  }

  /** Writes one chunk of the import. 'none' when the turn found no chunk left for it. */
  private async runImport(importId: string, slot: number): Promise<'written' | 'none'> {
    const job = await this.repository.load(importId);
    if (!job || (job.state !== 'queued' && job.state !== 'running')) return 'none';
    const handler = this.registry.get(job.entity);
    if (!handler) {
      await this.fail(importId, `no ingest handler for ${job.entity}`);
      return 'none';
    }
    const pending = await this.repository.pendingChunks(importId, 2 * this.chains);
    if (!pending.length) return 'none';
    // The chain's own share first, so that two turns in one file rarely reach for the same chunk.
    const mine = (chunk: { chunk: number }) => chunk.chunk % this.chains === slot;
    const ordered = [...pending.filter(mine), ...pending.filter((chunk) => !mine(chunk))];
    await this.repository.markRunning(importId);
    for (const chunk of ordered) {
      try {
        // Each chunk is a span of the upload's trace, linked to the turn that wrote it.
        const attributes = { 'wms.import.id': job.id, 'wms.import.chunk': chunk.chunk };
        const written = await inStoredTrace('import chunk', job.traceContext, attributes, () =>
          this.writeChunk(job, handler, chunk),
        );
        if (written) return 'written';
      } catch (error) {
        const attempts = await this.repository.chunkFailed(importId, chunk.chunk);
        if (attempts >= MAX_CHUNK_ATTEMPTS)
          await this.fail(importId, `chunk ${chunk.chunk} failed: ${(error as Error).message}`);
        throw error;
      }
    }
    return 'none';
  }

  /** Ends the import as failed (what was written stays) and says so with `import.completed`. */
  private async fail(importId: string, error: string): Promise<void> {
    await this.repository.end(importId, 'failed', error, (ended, transaction) =>
      appendImportEnded(this.events, transaction, ended),
    );
  }

  /** Writes one chunk; false when another worker holds or wrote it (or the import stopped). */
  private async writeChunk(
    job: StoredImport,
    handler: IngestHandler,
    chunk: { chunk: number; firstN: number; lastN: number },
  ): Promise<boolean> {
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
    const record = async (result: BulkResult, transaction: Transaction) => {
      const errors = [...rowErrors, ...entryErrors(handler, result, entries, written, writeErrors)];
      errors.sort((a, b) => a.n - b.n);
      const counts = { created: result.created, updated: result.updated, failed: errors.length };
      await this.repository.completeChunk(job.id, chunk.chunk, counts, errors, transaction);
      const finished = await this.repository.completeIfLast(job.id, transaction);
      if (finished) await appendImportEnded(this.events, transaction, finished);
    };
    const hooks: BulkJobHooks = {
      claim: (transaction) => this.repository.claimChunk(job.id, chunk.chunk, transaction),
      complete: async (result, transaction) => {
        if (transaction) return record(result, transaction);
        // No entry to write (every row failed before the write): the chunk is claimed and recorded alone.
        await this.db.sequelize.transaction(async (own) => {
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
      return true;
    } catch (error) {
      if (error instanceof BulkAlreadyWritten) return false;
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
