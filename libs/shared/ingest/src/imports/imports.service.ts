import { randomUUID } from 'node:crypto';
import type { Readable, Transform } from 'node:stream';
import { createGunzip } from 'node:zlib';
import type { Config, Database, Logger } from '@wms/platform';
import { AppError } from '@wms/platform';
import { settleWithin } from '@wms/platform';
import type { EventsService } from '@wms/events';
import type { IngestHandler, IngestRegistry } from '../integration/index.js';
import {
  ByteLimit,
  CsvCopyRows,
  NdjsonCopyRows,
  csvParser,
  csvRecordTooLarge,
  csvValuesOf,
  entryFromCsv,
  fieldPaths,
  formatOf,
  spreadsheetCsv,
  type ImportFormat,
} from './import-format.js';
import { IMPORT_ID_PREFIX, importErrorsPath, importStatusPath } from './import-paths.js';
import type { ImportTurns } from './import-turns.js';
import { endImport } from './import-events.js';
import type { TenantUploadLeases } from './tenant-upload-leases.js';
import { UploadSlots } from './upload-slots.js';
import { uploadBody } from './upload-body.js';
import type {
  ImportOwner,
  ImportProgress,
  ImportState,
  ImportsRepository,
  RowError,
  StoredImport,
} from './imports.repository.js';

/** File imports accept these entities in CSV; every entity in NDJSON. */
const CSV_ENTITIES = new Set(['items', 'partners', 'locations']);
/** How long handing a stored import to the queue may take before the dispatcher is left to do it. */
const QUEUE_ADD_MS = 500;
const ERRORS_PAGE = 1_000;

export interface Upload {
  tenantId: string;
  owner: ImportOwner;
  entity: unknown;
  contentType: string | undefined;
  contentEncoding: string | undefined;
  contentLength: string | undefined;
  body: Readable;
  requestId: string;
}

/** An import as GET /jobs/{jobId} (and the portal) shows it. */
export interface ImportView {
  jobId: string;
  type: 'import';
  entity: string;
  format: ImportFormat;
  state: ImportState;
  total: number;
  processed: number;
  created: number;
  updated: number;
  failed: number;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  statusUrl: string;
  errorsUrl: string;
  requestId: string;
  error?: string;
}

export function importView(job: ImportProgress): ImportView {
  return {
    jobId: job.id,
    type: 'import',
    entity: job.entity,
    format: job.format,
    state: job.state,
    total: job.total,
    processed: job.processed,
    created: job.created,
    updated: job.updated,
    failed: job.failed,
    createdAt: new Date(job.createdAt).toISOString(),
    startedAt: job.startedAt ? new Date(job.startedAt).toISOString() : null,
    finishedAt: job.finishedAt ? new Date(job.finishedAt).toISOString() : null,
    statusUrl: importStatusPath(job),
    errorsUrl: importErrorsPath(job),
    requestId: job.requestId,
    ...(job.error ? { error: job.error } : {}),
  };
}

/**
 * File imports, for the integration API (API keys) and the portal (users) alike: a file is streamed into
 * PostgreSQL and answered once stored; workers write it chunk by chunk (ImportRunner).
 */
export class ImportsService {
  private readonly slots: UploadSlots;

  constructor(
    private readonly db: Database,
    private readonly repository: ImportsRepository,
    private readonly registry: IngestRegistry,
    private readonly limits: Config['imports'],
    private readonly turns: ImportTurns | null,
    private readonly events: EventsService,
    /** The tenants' upload slots across gateways (none: counted on this gateway only), and where to say Redis is away. */
    shared: { leases: TenantUploadLeases; logger: Logger } | null = null,
  ) {
    this.slots = new UploadSlots(
      { maxInFlight: limits.maxUploadsInFlight, maxPerTenant: limits.maxUploadsPerTenant },
      shared?.leases ?? null,
      shared?.logger,
    );
  }

  /** Stores the file (every row, or nothing) and queues it. */
  async accept(upload: Upload): Promise<{ jobId: string; statusUrl: string }> {
    const handler = typeof upload.entity === 'string' ? this.registry.get(upload.entity) : undefined;
    if (!handler) {
      const names = this.registry.list().map((entry) => entry.entity);
      throw AppError.validation(`entity must be one of ${names.join(', ')}`, [
        { path: 'entity', message: `entity must be one of ${names.join(', ')}` },
      ]);
    }
    const format = formatOf(upload.contentType);
    if (!format)
      throw new AppError(
        'UNSUPPORTED_MEDIA_TYPE',
        'A file import is application/x-ndjson, or text/csv for items, partners and locations',
      );
    if (format === 'csv' && !CSV_ENTITIES.has(handler.entity))
      throw new AppError('UNSUPPORTED_MEDIA_TYPE', `${handler.entity} are imported as application/x-ndjson only`);
    const encoding = (upload.contentEncoding ?? 'identity').trim().toLowerCase();
    if (!['identity', 'gzip', 'x-gzip'].includes(encoding))
      throw new AppError('UNSUPPORTED_MEDIA_TYPE', `Content-Encoding ${encoding} is not accepted (gzip is)`);
    const gzip = encoding !== 'identity';
    const declared = Number(upload.contentLength);
    if (!gzip && Number.isFinite(declared) && declared > this.limits.maxBytes)
      throw tooLarge(`The file is larger than ${this.limits.maxBytes} bytes (IMPORT_MAX_BYTES)`);
    const slot = await this.slots.take(upload.tenantId, upload.owner);
    let id: string;
    try {
      await this.assertOwnerMayUpload(upload.owner, slot.ownerOthers);
      id = await this.store(upload, handler, format, gzip);
    } finally {
      slot.release();
    }
    await this.dispatch(upload.tenantId);
    const apiKeyId = 'apiKeyId' in upload.owner ? upload.owner.apiKeyId : null;
    return { jobId: id, statusUrl: importStatusPath({ id, apiKeyId }) };
  }

  /** 429 when the owner's imports queued or running, with its other uploads in flight, are at the limit. */
  private async assertOwnerMayUpload(owner: ImportOwner, othersInFlight: number): Promise<void> {
    const { maxConcurrentPerKey } = this.limits;
    if ((await this.repository.unfinishedOf(owner)) + othersInFlight >= maxConcurrentPerKey)
      throw new AppError(
        'TOO_MANY_IMPORTS',
        `At most ${maxConcurrentPerKey} imports may be uploading, queued or running at once; retry when one has finished`,
      );
  }

  /** Streams the file into PostgreSQL: every row, or nothing. */
  private async store(upload: Upload, handler: IngestHandler, format: ImportFormat, gzip: boolean): Promise<string> {
    const id = `${IMPORT_ID_PREFIX}${randomUUID()}`;
    const rows =
      format === 'csv'
        ? new CsvCopyRows(id, this.limits.maxRows, fieldPaths(handler.entrySchema))
        : new NdjsonCopyRows(id, this.limits.maxRows, this.limits.maxRowBytes);
    const stages: Transform[] = [
      ...(gzip ? [createGunzip()] : []),
      new ByteLimit(this.limits.maxBytes),
      ...(format === 'csv' ? [csvParser(this.limits.maxRowBytes)] : []),
      rows,
    ];
    const job = {
      id,
      tenantId: upload.tenantId,
      owner: upload.owner,
      entity: handler.entity,
      format,
      chunkRows: this.limits.chunkRows,
      requestId: upload.requestId,
    };
    try {
      await this.repository.store(job, [uploadBody(upload.body, this.limits), ...stages], (total) => {
        if (rows instanceof CsvCopyRows && !rows.columns)
          throw AppError.validation('The CSV file has no header row of field names');
        if (!total) throw AppError.validation('The file holds no rows');
        return { columns: rows instanceof CsvCopyRows ? rows.columns : null };
      });
    } catch (error) {
      throw csvRecordTooLarge(error, this.limits.maxRowBytes) ?? uploadError(error);
    }
    return id;
  }

  async find(id: string): Promise<StoredImport | null> {
    return this.repository.load(id);
  }

  /** The import as shown; with `apiKeyId`, only when that key uploaded it. */
  async view(id: string, apiKeyId?: string): Promise<ImportView | null> {
    const job = await this.repository.progress(id);
    if (!job || (apiKeyId !== undefined && job.apiKeyId !== apiKeyId)) return null;
    return importView(job);
  }

  /** The newest imports of a tenant (every tenant: null) of the entities given. */
  async list(tenantId: string | null, entities: string[], limit = 100): Promise<ImportView[]> {
    return (await this.repository.list(tenantId, entities, limit)).map(importView);
  }

  /** Stops an import: what was written stays, the job says how far it got. 409 when it had finished. */
  async cancel(id: string): Promise<ImportView> {
    const ended = await endImport(this.db, this.repository, this.events, { id, state: 'cancelled' });
    if (!ended) {
      const job = await this.repository.load(id);
      if (!job) throw AppError.notFound(`Job ${id} not found`);
      throw AppError.conflict(
        'INVALID_STATE',
        `Import ${id} is ${job.state}; only a queued or running import is cancelled`,
      );
    }
    return (await this.view(id))!;
  }

  /**
   * The failed rows, in file order: NDJSON lines `{ line, key, error: { code, message, details }, entry }`,
   * or CSV (the uploaded columns, or line/key/entry for an NDJSON file, plus error).
   */
  async *errors(job: StoredImport, as: 'ndjson' | 'csv'): AsyncGenerator<string> {
    const columns = job.columns ? (JSON.parse(job.columns) as string[]) : null;
    if (as === 'csv') yield spreadsheetCsv([[...(columns ?? ['line', 'key', 'entry']), 'error']]);
    const pageText = as === 'csv' ? csvErrorsPage : ndjsonErrorsPage;
    let after = 0;
    for (;;) {
      const page = await this.repository.errorsPage(job.id, after, ERRORS_PAGE);
      if (page.length) yield pageText(page, columns);
      if (page.length < ERRORS_PAGE) return;
      after = page[page.length - 1]!.n;
    }
  }

  private async dispatch(tenantId: string): Promise<void> {
    if (!this.turns) return;
    // A Redis or a database away costs nothing but time: the dispatcher queues and hands every tenant's turns.
    await settleWithin(this.turns.next(tenantId), QUEUE_ADD_MS);
  }
}

type ErrorRow = RowError & { body: string | null };

/** Failed rows as CSV: the uploaded columns (or line, key and entry for an NDJSON file), then the error. */
function csvErrorsPage(page: ErrorRow[], columns: string[] | null): string {
  return spreadsheetCsv(
    page.map((row) => [
      ...(columns
        ? csvValuesOf(columns, row.body ? JSON.parse(row.body) : [])
        : [String(row.line), row.key, row.body ?? '']),
      row.message,
    ]),
  );
}

/** Failed rows as NDJSON, their text as it was sent. */
function ndjsonErrorsPage(page: ErrorRow[], columns: string[] | null): string {
  let text = '';
  for (const row of page) {
    const entry = columns ? entryFromCsv(columns, row.body ? JSON.parse(row.body) : []) : jsonOrText(row.body);
    const error = { code: row.code, message: row.message, details: row.details ?? undefined };
    text += `${JSON.stringify({ line: row.line, key: row.key, error, entry })}\n`;
  }
  return text;
}

function jsonOrText(body: string | null): unknown {
  if (body === null) return null;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return body;
  }
}

function tooLarge(message: string): AppError {
  return new AppError('PAYLOAD_TOO_LARGE', message);
}

/** A body that broke off, a gzip or CSV stream that cannot be read: the client's 400, never a 500. */
function uploadError(error: unknown): unknown {
  if (error instanceof AppError) return error;
  const code = String((error as { code?: unknown }).code ?? '');
  if (code.startsWith('Z_') || code === 'ERR_PADDING_1' || /gzip|header check|unexpected end/i.test(String(error)))
    return AppError.validation('The body is not a complete gzip stream');
  if (code.startsWith('CSV_'))
    return AppError.validation(`The CSV file cannot be read: ${(error as Error).message.split('\n')[0]}`);
  if (['ECONNRESET', 'ERR_STREAM_PREMATURE_CLOSE', 'ECONNABORTED'].includes(code) || /aborted/i.test(String(error)))
    return new AppError('INCOMPLETE_BODY', 'The body ended before it was complete; nothing was stored');
  return error;
}
