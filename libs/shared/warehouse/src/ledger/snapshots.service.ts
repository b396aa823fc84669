import { randomUUID } from 'node:crypto';
import {
  AppError,
  Joi,
  isoInstant,
  exactNumberText,
  settleWithin,
  toDecimalString,
  unitOfWork,
  validate,
  type Database,
  type QuantityFormat,
} from '@wms/platform';
import { addStockSnapshotJob, type StockSnapshotsQueue } from './snapshots.contract.js';
import {
  SNAPSHOT_STATES,
  SnapshotsRepository,
  type SnapshotDispatchUnit,
  type StoredSnapshot,
} from './snapshots.repository.js';

export const SNAPSHOT_ID_PREFIX = 'snapshot-';
const CHUNKS_PER_READ = 20;
/** How long handing a stored snapshot to BullMQ may take before the dispatcher is left to do it. */
const REDIS_WRITE_MS = 500;

export interface SnapshotRequest {
  asOf?: string;
  warehouseCode?: string;
}

export const snapshotRequestSchema = Joi.object<SnapshotRequest & { tenantId?: string }>({
  asOf: isoInstant().description('ISO 8601 time the stock is taken at; default: now'),
  warehouseCode: Joi.string().trim().min(1).max(100).description('one warehouse; when left out, every one'),
  tenantId: Joi.string().guid().description('the tenant, for a cross-tenant API key'),
}).label('StockSnapshotRequest');

/** A snapshot as GET /jobs/{jobId} shows it. */
export interface SnapshotView {
  jobId: string;
  kind: 'stock_snapshot';
  state: StoredSnapshot['state'];
  asOf: string;
  warehouseCode: string | null;
  rows: number | null;
  error: string | null;
  createdAt: string;
  finishedAt: string | null;
  /** Where the NDJSON file is, once completed. */
  fileUrl: string | null;
}

/** `SnapshotView` for the OpenAPI document: every field is always there. */
export const snapshotViewSchema = Joi.object({
  jobId: Joi.string().description('snapshot-<uuid>'),
  kind: Joi.valid('stock_snapshot'),
  state: Joi.string().valid(...SNAPSHOT_STATES),
  asOf: Joi.string().isoDate(),
  warehouseCode: Joi.string().allow(null),
  rows: Joi.number().integer().allow(null).description('lines of the file, once completed'),
  error: Joi.string().allow(null).description('why a failed snapshot failed'),
  createdAt: Joi.string().isoDate(),
  finishedAt: Joi.string().isoDate().allow(null),
  fileUrl: Joi.string().allow(null).description('GET it for the NDJSON file, once completed'),
})
  .options({ presence: 'required' })
  .label('SnapshotStatus');

/** A quantity field of a snapshot line with its value: a decimal string, or a number (files of before 2026-12-01). */
const LINE_QUANTITY =
  /("(?:qtyOnHand|qtyAllocated|qtyAvailable)"\s*:\s*)("-?\d+(?:\.\d+)?"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/g;

/**
 * Snapshot lines with their quantities as `format` sends them. The three fields are the only quantities of a
 * line and the file is the service's own JSON, so they are rewritten in place rather than parsed line by line.
 */
export function quantitiesIn(lines: string, format: QuantityFormat): string {
  return lines.replace(LINE_QUANTITY, (_match, name: string, value: string) => {
    const quoted = value.startsWith('"');
    if (format === 'decimal') return `${name}${quoted ? value : JSON.stringify(toDecimalString(Number(value)))}`;
    return `${name}${quoted ? (exactNumberText(value.slice(1, -1)) ?? value) : value}`;
  });
}

export function isSnapshotId(id: string): boolean {
  return id.startsWith(SNAPSHOT_ID_PREFIX);
}

/**
 * Stock snapshot exports: a request is stored and its job queued (202); the job writes the tenant's stock as
 * of the requested time as an NDJSON file (one line per stock row with a balance then), read back a few
 * chunks at a time. A snapshot is its requesting key's: another key's is not found.
 */
export class StockSnapshotsService {
  private readonly repository: SnapshotsRepository;

  constructor(
    private readonly db: Database,
    private readonly queue: StockSnapshotsQueue | null = null,
  ) {
    this.repository = new SnapshotsRepository(db);
  }

  async request(tenantId: string, apiKeyId: string, body: unknown, now = new Date()): Promise<string> {
    const { tenantId: _named, ...input } = validate<SnapshotRequest & { tenantId?: string }>(
      snapshotRequestSchema,
      body ?? {},
    );
    const warehouseId = input.warehouseCode ? await this.repository.warehouseId(tenantId, input.warehouseCode) : null;
    if (input.warehouseCode && !warehouseId)
      throw AppError.referenceNotFound(`Warehouse code ${input.warehouseCode} not found`);
    const id = `${SNAPSHOT_ID_PREFIX}${randomUUID()}`;
    await this.repository.create({ id, tenantId, apiKeyId, warehouseId, asOf: input.asOf ?? now.toISOString() });
    // The snapshot is stored, as handed over (a bulk job's way): it is accepted. Queued now when Redis answers
    // in time (a Redis that hangs must not hold the request); otherwise the ingest worker's dispatcher hands it
    // over (at once when marked, else on its recheck), as it adds again a job Redis lost. Adding twice is a
    // no-op: the job's id is the snapshot's.
    const added = this.queue ? await settleWithin(addStockSnapshotJob(this.queue, id), REDIS_WRITE_MS) : undefined;
    if (added === undefined) await this.repository.notDispatched(id).catch(() => undefined);
    return id;
  }

  /** Unfinished snapshots' jobs, for the dispatcher, in one unit of work: see SnapshotsRepository.dispatch. */
  dispatch(
    limit: number,
    staleMs: number,
    hand: (units: SnapshotDispatchUnit[]) => Promise<string[]>,
  ): Promise<number> {
    return unitOfWork(this.db, (work) => this.repository.dispatch(limit, staleMs, hand, work));
  }

  /** The snapshot of this key, or null. */
  async find(id: string, apiKeyId: string): Promise<StoredSnapshot | null> {
    if (!isSnapshotId(id)) return null;
    const snapshot = await this.repository.find(id);
    return snapshot && snapshot.apiKeyId === apiKeyId ? snapshot : null;
  }

  view(snapshot: StoredSnapshot, fileUrl: string): SnapshotView {
    return {
      jobId: snapshot.id,
      kind: 'stock_snapshot',
      state: snapshot.state,
      asOf: snapshot.asOf,
      warehouseCode: snapshot.warehouseCode,
      rows: snapshot.rows,
      error: snapshot.error,
      createdAt: snapshot.createdAt,
      finishedAt: snapshot.finishedAt,
      fileUrl: snapshot.state === 'completed' ? fileUrl : null,
    };
  }

  /** The NDJSON file of a completed snapshot, a few chunks at a time, its quantities in `format`. */
  async *file(snapshot: StoredSnapshot, format: QuantityFormat = 'decimal'): AsyncGenerator<string> {
    for (let from = 0; ; from += CHUNKS_PER_READ) {
      const chunks = await this.repository.chunks(snapshot.id, from, CHUNKS_PER_READ);
      for (const chunk of chunks) yield quantitiesIn(chunk.body, format);
      if (chunks.length < CHUNKS_PER_READ) return;
    }
  }

  /** The job's work: writes the snapshot's file (a retry rewrites it whole); a missing snapshot is done. */
  async write(id: string): Promise<void> {
    await unitOfWork(this.db, (work) => this.repository.writeFile(id, work));
  }

  /** The job's last failure: the snapshot says it failed. */
  async fail(id: string, error: string): Promise<void> {
    await this.repository.fail(id, error);
  }

  purgeOlderThan(days: number, limit: number): Promise<number> {
    return this.repository.purgeOlderThan(days, limit);
  }
}
