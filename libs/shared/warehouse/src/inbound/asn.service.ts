import type { Database } from '@wms/platform';
import { AppError, type ErrorDetail } from '@wms/platform';
import type { EntryOutcome, WriteContext } from '../writes/index.js';
import { toPage, type ListPage, type ListQuery } from '@wms/platform';
import { DocumentCreation, documentInvalid, lineProblems, type DocumentRecipe } from '../documents/index.js';
import { lotProblem } from '../inventory/index.js';
import type { ItemRef, References } from '../master-data/index.js';
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
 * ASN creation (single and bulk through the ingest registry, by the document recipe), the ASN inquiry and
 * the ASN list.
 */
export class AsnService {
  private readonly repository: AsnRepository;
  private readonly creation: DocumentCreation;
  private readonly recipe: DocumentRecipe<AsnInput, CheckedAsn, InsertedAsn>;

  constructor(db: Database) {
    this.repository = new AsnRepository(db);
    this.creation = new DocumentCreation(db);
    this.recipe = asnRecipe(this.repository);
  }

  /** Creates a batch of ASNs in the caller's transaction; every entry gets its own outcome. */
  createAsns(context: WriteContext, inputs: AsnInput[]): Promise<EntryOutcome[]> {
    return this.creation.create(this.recipe, context, inputs);
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

/** ASNs in the document recipe: supplier, checks, header and line statements, the created ASN. */
function asnRecipe(repository: AsnRepository): DocumentRecipe<AsnInput, CheckedAsn, InsertedAsn> {
  return {
    kind: 'ASN',
    series: 'ASN',
    partnerCode: (input) => input.supplierCode,
    check: checkAsn,
    async insertHeaders(tenantId, documents, { transaction }) {
      const headers = documents.map(({ checked: asn, number }) => ({
        asnNo: number,
        referenceNo: asn.input.referenceNo,
        warehouseId: asn.warehouseId,
        supplierId: asn.supplierId,
        expectedDate: asn.input.expectedDate ?? null,
      }));
      const rows = await repository.insertAsns(tenantId, headers, transaction);
      return new Map(rows.map((row) => [row.asnNo, row]));
    },
    insertLines: (documents, { transaction }) =>
      repository.insertLines(
        documents.flatMap(({ checked: asn, row }) =>
          asn.input.lines.map((line, n) => ({
            asnId: row.id,
            lineNo: line.lineNo,
            itemId: asn.items[n]!.id,
            uomCode: line.uomCode,
            expectedQty: line.expectedQty,
            lotNo: line.lotNo ?? null,
            expiryDate: line.expiryDate ?? null,
          })),
        ),
        transaction,
      ),
    numbersByReference: (tenantId, referenceNos, { transaction }) =>
      repository.numbersByReference(tenantId, referenceNos, transaction),
    created: (asn, row) => ({
      ok: true,
      created: true,
      data: { id: row.id, asnNo: row.asnNo, referenceNo: row.referenceNo },
      document: asnDocument(asn, row),
    }),
  };
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
