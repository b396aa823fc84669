import type { Database } from '../db/index.js';
import { AppError, type ErrorDetail } from '../errors/index.js';
import { toPage, type EntryOutcome, type ListPage, type ListQuery, type WriteContext } from '../integration/index.js';
import { documentInvalid, duplicateReference, lineProblems, lotProblem } from '../inventory/index.js';
import { ReferenceRepository, type ItemRef, type References } from '../master-data/index.js';
import { DocumentNumbers } from '../numbering/index.js';
import { AsnRepository, type InsertedAsn } from './asn.repository.js';
import type { AsnInput, AsnStatus } from './asn.schemas.js';

/** Partner types that may deliver against an ASN. */
const SUPPLIER_TYPES = ['supplier', 'other'];

interface CheckedAsn {
  input: AsnInput;
  warehouseId: string;
  supplierId: string;
  items: ItemRef[];
}

/**
 * ASN creation (single and bulk through the ingest registry), the ASN inquiry and the ASN list. A batch
 * resolves its references in one query, takes its numbers in one statement and writes headers and
 * lines in one statement each; every entry gets its own outcome.
 */
export class AsnService {
  private readonly repository: AsnRepository;
  private readonly references: ReferenceRepository;
  private readonly numbers: DocumentNumbers;

  constructor(db: Database) {
    this.repository = new AsnRepository(db);
    this.references = new ReferenceRepository(db);
    this.numbers = new DocumentNumbers(db);
  }

  async createAsns({ tenantId, transaction }: WriteContext, inputs: AsnInput[]): Promise<EntryOutcome[]> {
    const refs = await this.references.resolve(
      tenantId,
      {
        warehouseCodes: inputs.map((input) => input.warehouseCode),
        partnerCodes: inputs.map((input) => input.supplierCode),
        skus: inputs.flatMap((input) => input.lines.map((line) => line.sku)),
      },
      transaction,
    );
    const outcomes: EntryOutcome[] = new Array(inputs.length);
    const checked: { index: number; asn: CheckedAsn }[] = [];
    inputs.forEach((input, index) => {
      try {
        checked.push({ index, asn: checkAsn(input, refs) });
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        outcomes[index] = { ok: false, error };
      }
    });
    if (!checked.length) return outcomes;

    const numbers = await this.numbers.reserve('ASN', checked.length, transaction);
    const headers = checked.map(({ asn }, position) => ({
      asnNo: numbers[position]!,
      referenceNo: asn.input.referenceNo,
      warehouseId: asn.warehouseId,
      supplierId: asn.supplierId,
      expectedDate: asn.input.expectedDate ?? null,
    }));
    const inserted = new Map(
      (await this.repository.insertAsns(tenantId, headers, transaction)).map((row) => [row.asnNo, row]),
    );
    await this.repository.insertLines(
      checked.flatMap(({ asn }, position) => {
        const row = inserted.get(headers[position]!.asnNo);
        return row
          ? asn.input.lines.map((line, n) => ({
              asnId: row.id,
              lineNo: line.lineNo,
              itemId: asn.items[n]!.id,
              uomCode: line.uomCode,
              expectedQty: line.expectedQty,
              lotNo: line.lotNo ?? null,
              expiryDate: line.expiryDate ?? null,
            }))
          : [];
      }),
      transaction,
    );

    const skipped = checked
      .filter((_, position) => !inserted.has(headers[position]!.asnNo))
      .map(({ asn }) => asn.input.referenceNo);
    const existing = skipped.length
      ? await this.repository.numbersByReference(tenantId, skipped, transaction)
      : new Map<string, string>();
    checked.forEach(({ index, asn }, position) => {
      const row = inserted.get(headers[position]!.asnNo);
      outcomes[index] = row
        ? {
            ok: true,
            created: true,
            data: { id: row.id, asnNo: row.asnNo, referenceNo: row.referenceNo },
            document: asnDocument(asn, row),
          }
        : { ok: false, error: duplicateReference('ASN', asn.input.referenceNo, existing.get(asn.input.referenceNo)) };
    });
    return outcomes;
  }

  /** The ASN inquiry: the ASN, its lines with receivedQty, and its GRNs. Another tenant's ASN is not found. */
  async inquire(tenantId: string, asnNo: string): Promise<Record<string, unknown>> {
    const document = await this.repository.findDocument(tenantId, asnNo);
    if (!document) throw AppError.notFound(`ASN ${asnNo} not found`);
    return document;
  }

  async list(tenantId: string, query: ListQuery<AsnStatus>): Promise<ListPage<Record<string, unknown>>> {
    return toPage(await this.repository.list(tenantId, query), query.limit);
  }
}

/**
 * Resolves one ASN's references and checks its lines; throws the first missing reference, or every line problem
 * at once.
 */
function checkAsn(input: AsnInput, refs: References): CheckedAsn {
  const warehouse = refs.warehouse(input.warehouseCode);
  const supplier = refs.partner(input.supplierCode);
  const items = input.lines.map((line) => refs.item(line.sku));
  const details: ErrorDetail[] = [];
  if (!SUPPLIER_TYPES.includes(supplier.type)) {
    details.push({
      path: 'supplierCode',
      message: `Partner code ${supplier.code} is a ${supplier.type}, not a supplier`,
    });
  }
  input.lines.forEach((line, n) => {
    details.push(
      ...lineProblems(
        `lines.${n}`,
        line.lineNo,
        items[n]!,
        line.uomCode,
        lotProblem(items[n]!, line.lotNo, line.expiryDate, false),
      ),
    );
  });
  if (details.length) throw documentInvalid(details);
  return { input, warehouseId: warehouse.id, supplierId: supplier.id, items };
}

function asnDocument(asn: CheckedAsn, row: InsertedAsn): Record<string, unknown> {
  return {
    id: row.id,
    asnNo: row.asnNo,
    referenceNo: row.referenceNo,
    warehouseCode: asn.input.warehouseCode,
    supplierCode: asn.input.supplierCode,
    expectedDate: asn.input.expectedDate ?? null,
    status: 'open',
    createdAt: row.createdAt,
    updatedAt: row.createdAt,
    lines: asn.input.lines.map((line, n) => ({
      lineNo: line.lineNo,
      sku: asn.items[n]!.sku,
      uomCode: line.uomCode,
      expectedQty: line.expectedQty,
      receivedQty: 0,
      lotNo: line.lotNo ?? null,
      expiryDate: line.expiryDate ?? null,
    })),
    grns: [],
  };
}
