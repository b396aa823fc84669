import type Joi from 'joi';
import type { Transaction } from 'sequelize';
import type { Database } from '@wms/platform';
import { AppError, unitOfWork } from '@wms/platform';
import { compileCanonicalCheck, toErrorDetails, VALIDATION_PREFERENCES, type CanonicalCheck } from '@wms/platform';
import { toBulkResult, type BulkEntryResult, type BulkResult } from './envelopes.js';
import { BulkAlreadyWritten, type EntryOutcome, type WriteGuard } from '@wms/warehouse';
import type { IngestHandler } from './ingest-handler.js';

export interface BulkRunOptions {
  tenantId: string;
  /** Validate and run every statement, then roll back: the answer says what would happen. */
  dryRun?: boolean;
  /** The stored job this bulk is: its writes take effect once and its result is stored with them. */
  job?: BulkJobHooks;
  /** Told of each entry the write refused, with its error (a bulk result keeps only the message). */
  onWriteError?: (index: number, error: AppError) => void;
  /**
   * Entries per statement of a single-statement handler, above its own `batchSize` (a file import writes
   * a chunk in one statement); other handlers keep theirs.
   */
  batchSize?: number;
  /** Filled with the milliseconds spent validating and writing (an import reports its stages). */
  stages?: BulkStages;
}

/** Where a bulk's time went: validating its entries, and writing the valid ones (and its result). */
export interface BulkStages {
  validateMs: number;
  writeMs: number;
}

/** How a stored bulk job's writes and result are tied to its row (see bulk-jobs). */
export interface BulkJobHooks {
  /** Guards the one statement of a bulk that runs without a transaction; without one, a transaction always runs. */
  guard?: WriteGuard;
  /** In the bulk's transaction before any write: false when another run of the job wrote it already. */
  claim(transaction: Transaction): Promise<boolean>;
  /**
   * Stores the result: in the bulk's transaction when it has one (so writes and result commit together),
   * else after its guarded statement.
   */
  complete(result: BulkResult, transaction?: Transaction): Promise<void>;
}

/**
 * Each handler's entry schema with the validation preferences bound once (passing options on every call
 * makes joi merge them per entry), and the compiled check of entries joi would answer unchanged.
 */
const entrySchemas = new WeakMap<IngestHandler, { schema: Joi.ObjectSchema; canonical: CanonicalCheck }>();

function entrySchemaOf(handler: IngestHandler): { schema: Joi.ObjectSchema; canonical: CanonicalCheck } {
  let compiled = entrySchemas.get(handler);
  if (!compiled) {
    compiled = {
      schema: handler.entrySchema.prefs(VALIDATION_PREFERENCES),
      canonical: compileCanonicalCheck(handler.entrySchema),
    };
    entrySchemas.set(handler, compiled);
  }
  return compiled;
}

/**
 * Validates one entry with the handler's schema; the error lists every bad path. An entry the compiled
 * check finds already canonical is valid as it is; joi decides and explains every other.
 */
export function validateEntry<Entry>(
  handler: IngestHandler<Entry>,
  entry: unknown,
): { value: Entry } | { error: string } {
  const { schema, canonical } = entrySchemaOf(handler);
  if (canonical(entry)) return { value: entry as Entry };
  const result = schema.validate(entry);
  if (!result.error) return { value: result.value as Entry };
  return {
    error: toErrorDetails(result.error)
      .map((detail) => detail.message)
      .join('; '),
  };
}

type ValidEntry = { index: number; key: string; value: unknown };

/**
 * Processes a bulk request: each entry is validated on its own, valid entries are written in batches
 * inside one transaction (so a retried job never finds half of itself written), and every entry gets
 * its result at its own index. A single-statement handler's bulk that fits one batch needs no
 * transaction: its one statement is atomic already.
 */
export async function runBulk(
  db: Database,
  handler: IngestHandler,
  entries: unknown[],
  options: BulkRunOptions,
): Promise<BulkResult> {
  const validating = performance.now();
  const results: BulkEntryResult[] = new Array(entries.length);
  const valid: ValidEntry[] = [];
  entries.forEach((entry, index) => {
    const checked = validateEntry(handler, entry);
    if ('error' in checked)
      results[index] = { index, key: handler.keyOf(entry), status: 'error', error: checked.error };
    else valid.push({ index, key: handler.keyOf(checked.value), value: checked.value });
  });
  const { stages } = options;
  const writing = performance.now();
  if (stages) stages.validateMs += writing - validating;
  try {
    return await writeValid(db, handler, valid, results, options);
  } finally {
    if (stages) stages.writeMs += performance.now() - writing;
  }
}

async function writeValid(
  db: Database,
  handler: IngestHandler,
  valid: ValidEntry[],
  results: BulkEntryResult[],
  options: BulkRunOptions,
): Promise<BulkResult> {
  const { tenantId, dryRun = false, job, onWriteError } = options;
  if (!valid.length) return finish(results, job);
  const batchSize = handler.singleStatement ? Math.max(handler.batchSize, options.batchSize ?? 0) : handler.batchSize;

  if (handler.singleStatement && !dryRun && valid.length <= batchSize && (!job || job.guard)) {
    const guard = job?.guard;
    const write = (values: unknown[]) => handler.writeBatch({ tenantId, guard }, values);
    await writeBatch(handler, valid, write, results, false, onWriteError);
    return finish(results, job);
  }
  // A dry run's unit of work rolls back whatever it wrote and answers what the writes would have done.
  return unitOfWork(
    db,
    async (transaction) => {
      if (job && !(await job.claim(transaction))) throw new BulkAlreadyWritten();
      for (let start = 0; start < valid.length; start += batchSize) {
        const batch = valid.slice(start, start + batchSize);
        await writeBatch(
          handler,
          batch,
          (values) => handler.writeBatch({ tenantId, transaction }, values),
          results,
          dryRun,
          onWriteError,
        );
      }
      const result = toBulkResult(results);
      if (!dryRun) await job?.complete(result, transaction);
      return result;
    },
    { dryRun },
  );
}

async function finish(results: BulkEntryResult[], job: BulkJobHooks | undefined): Promise<BulkResult> {
  const result = toBulkResult(results);
  await job?.complete(result);
  return result;
}

async function writeBatch(
  handler: IngestHandler,
  batch: ValidEntry[],
  write: (values: unknown[]) => Promise<EntryOutcome[]>,
  results: BulkEntryResult[],
  dryRun: boolean,
  onWriteError?: (index: number, error: AppError) => void,
): Promise<void> {
  // With merging, each key is written once with its last entry's values; every entry still gets a result.
  const lastByKey = new Map<string, number>();
  if (handler.mergeDuplicates) batch.forEach((entry, position) => lastByKey.set(entry.key, position));
  const written = handler.mergeDuplicates
    ? [...lastByKey.values()].sort((a, b) => a - b).map((position) => batch[position]!)
    : batch;
  const outcomes = await write(written.map((entry) => entry.value));
  const outcomeByKey = new Map<string, EntryOutcome>();
  written.forEach((entry, position) => outcomeByKey.set(entry.key, outcomes[position]!));

  const seen = new Set<string>();
  batch.forEach((entry, position) => {
    const outcome = handler.mergeDuplicates ? outcomeByKey.get(entry.key)! : outcomes[position]!;
    const repeated = handler.mergeDuplicates && seen.has(entry.key);
    seen.add(entry.key);
    if (!outcome.ok) {
      onWriteError?.(entry.index, outcome.error);
      results[entry.index] = { index: entry.index, key: entry.key, status: 'error', error: outcome.error.message };
      return;
    }
    // The first entry of a key reports what the statement did; later ones updated what it wrote.
    const created = outcome.created && !repeated;
    const data = dryRun && outcome.created ? { ...outcome.data, id: null } : outcome.data;
    results[entry.index] = { index: entry.index, key: entry.key, status: created ? 'created' : 'updated', data };
  });
}

/** Writes one entry in the caller's transaction; an entry error becomes the request's error. */
export async function writeOne(
  handler: IngestHandler,
  context: { tenantId: string; transaction: Transaction },
  entry: unknown,
) {
  const [outcome] = await handler.writeBatch(context, [entry]);
  if (!outcome) throw new AppError('INTERNAL_ERROR', 'Internal server error');
  if (!outcome.ok) throw outcome.error;
  return outcome.document ?? { ...outcome.data, created: outcome.created };
}
