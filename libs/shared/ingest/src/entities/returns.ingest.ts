import { stringField, type IngestEntityDeclaration, type IngestHandler } from '../integration/index.js';
import type { ReturnsService, WriteContext } from '@wms/warehouse';
import { returnRefSchema, returnDocumentSchema, returnSchema, type ReturnInput } from '@wms/warehouse';
import { DOCUMENT_BULK_LIMIT } from './asn.ingest.js';

/**
 * Customer returns (RMAs) as an entity of the integration API: POST /returns (201 with the created return)
 * and POST /returns/bulk with `{ returns: [...] }`. Returns are created, never updated: an entry whose rmaNo
 * exists (earlier in the same bulk included) is an entry error 409 DUPLICATE_REFERENCE.
 */
export const RETURN_ENTITY = {
  entity: 'returns',
  title: 'Return',
  keyField: 'rmaNo',
  maxEntries: DOCUMENT_BULK_LIMIT,
  batchSize: DOCUMENT_BULK_LIMIT,
  entrySchema: returnSchema,
  refSchema: returnRefSchema,
  documentSchema: returnDocumentSchema,
  singleStatus: 201,
  mergeDuplicates: false,
  singleStatement: false,
  keyOf: (entry) => stringField(entry, 'rmaNo'),
} satisfies IngestEntityDeclaration<ReturnInput, 'returns'>;

export function returnIngestHandler(service: ReturnsService): IngestHandler<ReturnInput, 'returns'> {
  return {
    ...RETURN_ENTITY,
    writeBatch: (context: WriteContext, entries: ReturnInput[]) => service.createReturns(context, entries),
  };
}
