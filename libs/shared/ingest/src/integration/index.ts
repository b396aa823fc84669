export {
  successEnvelope,
  successEnvelopeText,
  toBulkResult,
  bulkHttpStatus,
  bulkEnvelope,
  bulkEnvelopeText,
  bulkResultText,
  INTEGRATION_JOBS_PATH,
  type BulkResultText,
  type SuccessEnvelope,
  type BulkEntryResult,
  type BulkEntryError,
  type BulkResult,
  type BulkEnvelope,
  type AcceptedEnvelope,
} from './envelopes.js';
export { resolveKeyTenant, TENANT_REQUIRED_MESSAGE, type TenantPlace } from './tenant-resolution.js';
export {
  IngestRegistry,
  stringField,
  bulkFieldOf,
  type IngestHandler,
  type IngestEntityOf,
  type IngestEntityDeclaration,
} from './ingest-handler.js';
export {
  runBulk,
  writeOne,
  validateEntry,
  type BulkRunOptions,
  type BulkJobHooks,
  type BulkStages,
} from './bulk-engine.js';
export { bulkBodySchema, bulkBodyValidator, singleBodySchema } from './bodies.js';
export { buildOpenApiDocument, type IntegrationRoute } from './openapi.js';
export {
  ANSWER_SCHEMAS,
  INTEGRATION_ERROR_CODES,
  importViewSchema,
  successSchema,
  pageSchema,
} from './answer.schemas.js';
