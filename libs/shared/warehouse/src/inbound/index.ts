export { AsnService } from './asn.service.js';
export { GrnService } from './grn.service.js';
export { AsnRepository, type LockedAsn } from './asn.repository.js';
export {
  asnSchema,
  grnSchema,
  asnRefSchema,
  ASN_STATUSES,
  RECEIVING_LOCATION,
  DOCUMENT_LINES_MAX,
  type AsnInput,
  type AsnLineInput,
  type AsnStatus,
  type GrnInput,
  type GrnLineInput,
} from './asn.schemas.js';
export { asnDocumentSchema, asnListItemSchema, grnAnswerSchema } from './asn.answers.js';
