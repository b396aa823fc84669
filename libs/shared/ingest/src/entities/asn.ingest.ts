import { stringField, type IngestEntityDeclaration, type IngestHandler } from '../integration/index.js';
import type { AsnService, WriteContext } from '@wms/warehouse';
import { asnRefSchema, asnDocumentSchema, asnSchema, type AsnInput } from '@wms/warehouse';

/** Bulk ASNs and orders take at most 100 entries per request. */
export const DOCUMENT_BULK_LIMIT = 100;

/**
 * ASNs as an entity of the integration API: POST /asn (201 with the created ASN) and POST /asn/bulk with
 * `{ asns: [...] }`. Documents are created, never updated: an entry whose referenceNo exists (earlier in
 * the same bulk included) is an entry error 409 DUPLICATE_REFERENCE, so entries are not merged.
 */
export const ASN_ENTITY = {
  entity: 'asn',
  bulkField: 'asns',
  title: 'Asn',
  maxEntries: DOCUMENT_BULK_LIMIT,
  batchSize: DOCUMENT_BULK_LIMIT,
  entrySchema: asnSchema,
  refSchema: asnRefSchema,
  documentSchema: asnDocumentSchema,
  singleStatus: 201,
  mergeDuplicates: false,
  singleStatement: false,
  keyOf: (entry) => stringField(entry, 'referenceNo'),
} satisfies IngestEntityDeclaration<AsnInput, 'asn'>;

export function asnIngestHandler(service: AsnService): IngestHandler<AsnInput, 'asn'> {
  return {
    ...ASN_ENTITY,
    writeBatch: (context: WriteContext, entries: AsnInput[]) => service.createAsns(context, entries),
  };
}
