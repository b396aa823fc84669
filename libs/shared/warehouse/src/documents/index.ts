export { lineProblems, documentInvalid, duplicateReference } from './document-rules.js';
export {
  DocumentCreation,
  type DocumentRecipe,
  type DocumentInput,
  type CheckedDocument,
  type InsertedDocument,
} from './create-documents.js';
export { answerObject, answerQty, answerTime, answerDate, answerId, nullable } from './answer-fields.js';
