import type { Database } from '@wms/platform';
import { AppError } from '@wms/platform';
import type { EntryOutcome, WriteContext } from '../writes/index.js';
import { ReferenceRepository, type References } from '../master-data/index.js';
import { DocumentNumbers, type DocumentKind } from '../numbering/index.js';
import { duplicateReference } from './document-rules.js';

/** What every created document (ASN, sales order) names: its client's reference, a warehouse, a partner, lines of items. */
export interface DocumentInput {
  referenceNo: string;
  warehouseCode: string;
  lines: { sku: string }[];
}

/** A document whose references resolved and whose rules hold, ready to be numbered and inserted. */
export interface CheckedDocument<Input extends DocumentInput> {
  input: Input;
}

/** A numbered document as its header statement returned it: keyed by its number. */
export interface InsertedDocument {
  id: string;
  referenceNo: string;
}

/**
 * What one kind of document adds to the creation recipe: which partner it names, its checks, its header and
 * line statements and its answer.
 */
export interface DocumentRecipe<
  Input extends DocumentInput,
  Checked extends CheckedDocument<Input>,
  Row extends InsertedDocument,
> {
  /** Names the kind in a duplicate's error (`ASN with referenceNo … already exists`). */
  kind: 'ASN' | 'Order';
  /** The number series the documents are numbered from. */
  series: DocumentKind;
  /** The partner code the document names (supplier of an ASN, customer of an order). */
  partnerCode(input: Input): string;
  /** Checks one document against the resolved references; throws the AppError that refuses it. */
  check(input: Input, refs: References): Checked;
  /**
   * Inserts the headers, each with its number, in one statement. A header whose referenceNo exists in the
   * tenant is not inserted; answers the inserted rows by number.
   */
  insertHeaders(
    tenantId: string,
    documents: { checked: Checked; number: string }[],
    context: WriteContext,
  ): Promise<Map<string, Row>>;
  /** Inserts the lines of the inserted documents in one statement. */
  insertLines(documents: { checked: Checked; row: Row }[], context: WriteContext): Promise<void>;
  /** The numbers of the documents that hold these referenceNos, by referenceNo. */
  numbersByReference(tenantId: string, referenceNos: string[], context: WriteContext): Promise<Map<string, string>>;
  /** The answer for one created document: its reference and the document in full. */
  created(checked: Checked, row: Row): EntryOutcome;
}

/**
 * Creates a batch of documents of one kind, in the caller's transaction: resolves every reference of the
 * batch in one query, checks each document on its own, takes the numbers of the good ones in one statement,
 * inserts their headers and then their lines in one statement each. Every document gets its own outcome: its
 * check's error, a 409 DUPLICATE_REFERENCE naming the existing number, or the created document.
 */
export class DocumentCreation {
  private readonly references: ReferenceRepository;
  private readonly numbers: DocumentNumbers;

  constructor(db: Database) {
    this.references = new ReferenceRepository(db);
    this.numbers = new DocumentNumbers(db);
  }

  async create<Input extends DocumentInput, Checked extends CheckedDocument<Input>, Row extends InsertedDocument>(
    recipe: DocumentRecipe<Input, Checked, Row>,
    context: WriteContext,
    inputs: Input[],
  ): Promise<EntryOutcome[]> {
    const { tenantId, transaction } = context;
    const refs = await this.references.resolve(
      tenantId,
      {
        warehouseCodes: inputs.map((input) => input.warehouseCode),
        partnerCodes: inputs.map((input) => recipe.partnerCode(input)),
        skus: inputs.flatMap((input) => input.lines.map((line) => line.sku)),
      },
      transaction,
    );
    const outcomes: EntryOutcome[] = new Array(inputs.length);
    const checked: { index: number; checked: Checked }[] = [];
    inputs.forEach((input, index) => {
      try {
        checked.push({ index, checked: recipe.check(input, refs) });
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        outcomes[index] = { ok: false, error };
      }
    });
    if (!checked.length) return outcomes;

    const numbers = await this.numbers.reserve(recipe.series, checked.length, transaction);
    const numbered = checked.map((entry, position) => ({ ...entry, number: numbers[position]! }));
    const inserted = await recipe.insertHeaders(tenantId, numbered, context);
    await recipe.insertLines(
      numbered.flatMap((entry) => {
        const row = inserted.get(entry.number);
        return row ? [{ checked: entry.checked, row }] : [];
      }),
      context,
    );

    const skipped = numbered
      .filter((entry) => !inserted.has(entry.number))
      .map((entry) => entry.checked.input.referenceNo);
    const existing = skipped.length
      ? await recipe.numbersByReference(tenantId, skipped, context)
      : new Map<string, string>();
    for (const entry of numbered) {
      const row = inserted.get(entry.number);
      const { referenceNo } = entry.checked.input;
      outcomes[entry.index] = row
        ? recipe.created(entry.checked, row)
        : { ok: false, error: duplicateReference(recipe.kind, referenceNo, existing.get(referenceNo)) };
    }
    return outcomes;
  }
}
