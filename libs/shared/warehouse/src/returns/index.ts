export { ReturnsService } from './returns.service.js';
export { ReturnReceiptsService } from './return-receipts.service.js';
export {
  returnSchema,
  returnRefSchema,
  returnReceiptSchema,
  RETURN_STATUSES,
  DISPOSITIONS,
  RESTOCK_LOCATION,
  QUARANTINE_LOCATION,
  type ReturnInput,
  type ReturnLineInput,
  type ReturnStatus,
  type ReceiptInput,
  type ReceiptLineInput,
  type Disposition,
} from './return.schemas.js';
export { returnDocumentSchema, returnListItemSchema } from './return.answers.js';
