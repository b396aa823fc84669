import { Joi, type RouteAnswer } from '@wms/platform';
import { importViewSchema, successSchema, type IntegrationRoute } from '@wms/ingest';

/** The file-import routes of the integration API: mounted by imports.routes.ts, documented in the OpenAPI document. */

const error = (description: string): RouteAnswer => ({ description, body: 'ErrorEnvelope' });

export const importQuerySchema = Joi.object({
  entity: Joi.string()
    .valid('items', 'partners', 'locations', 'asn', 'orders')
    .required()
    .description('what each row is'),
  tenantId: Joi.string().guid().description('the tenant, for a cross-tenant API key'),
}).label('ImportQuery');

const FILE = { type: 'string', description: 'the file, streamed' };

export const IMPORT_ROUTES = {
  upload: {
    method: 'post',
    path: '/imports',
    scope: 'write',
    summary: 'Import a file of entries (NDJSON, or CSV for items, partners and locations), gzip allowed',
    description:
      "application/x-ndjson: one entry per line, the shape of the entity's single POST. text/csv: a header row of " +
      'field names (nested fields by dotted names such as contact.phone), one entry per record; an empty value ' +
      'leaves the field out. Content-Encoding: gzip is accepted. The body is streamed into PostgreSQL; the answer ' +
      '202 comes once every row is stored (a body cut off stores nothing). A row that is not valid (not JSON ' +
      'included) is a row error listed by errorsUrl, not a failed import. Limits: IMPORT_MAX_BYTES, ' +
      'IMPORT_MAX_ROWS and IMPORT_MAX_ROW_BYTES (413, the last as soon as one line or CSV record passes it), ' +
      'IMPORT_MAX_UPLOADS_IN_FLIGHT per gateway and IMPORT_MAX_UPLOADS_PER_TENANT across gateways (503 with ' +
      'Retry-After) and IMPORT_MAX_CONCURRENT_PER_KEY uploading, queued or running (429); the 503 and 429 come ' +
      'before the body is read. An upload that sends no byte for IMPORT_UPLOAD_IDLE_TIMEOUT_MS ends with 408 ' +
      'UPLOAD_IDLE, one slower than IMPORT_MIN_UPLOAD_BYTES_PER_SECOND with 408 UPLOAD_TOO_SLOW; nothing stored. ' +
      'Idempotency-Key: the fingerprint is the ' +
      "request's method, URL and content headers (the file itself is not held to be hashed).",
    tag: 'imports',
    query: importQuerySchema,
    requestMedia: { 'application/x-ndjson': FILE, 'text/csv': FILE },
    parameters: [
      { name: 'Content-Encoding', in: 'header', schema: { enum: ['gzip', 'identity'] }, description: 'gzip allowed' },
    ],
    responses: {
      202: { description: 'stored; poll statusUrl', body: 'Accepted' },
      400: error('VALIDATION_FAILED (entity, empty file, CSV header), INCOMPLETE_BODY, TENANT_REQUIRED'),
      403: error('TENANT_MISMATCH'),
      408: error(
        'UPLOAD_IDLE: no byte of the body for IMPORT_UPLOAD_IDLE_TIMEOUT_MS; UPLOAD_TOO_SLOW: slower than ' +
          'IMPORT_MIN_UPLOAD_BYTES_PER_SECOND over IMPORT_UPLOAD_RATE_WINDOW_MS; nothing is stored',
      ),
      409: error('IDEMPOTENCY_KEY_IN_PROGRESS'),
      413: error(
        'PAYLOAD_TOO_LARGE: over IMPORT_MAX_BYTES or IMPORT_MAX_ROWS; ROW_TOO_LARGE: a line or CSV record over ' +
          'IMPORT_MAX_ROW_BYTES, or a CSV record of more than 1,024 fields (its line in `line`); nothing is stored',
      ),
      415: error(
        'UNSUPPORTED_MEDIA_TYPE: neither NDJSON nor CSV, CSV for asn or orders, or an encoding other than gzip',
      ),
      429: error('TOO_MANY_IMPORTS: IMPORT_MAX_CONCURRENT_PER_KEY uploading, queued or running; before the body'),
      503: error(
        'UPLOADS_BUSY: IMPORT_MAX_UPLOADS_IN_FLIGHT uploads on this gateway, or IMPORT_MAX_UPLOADS_PER_TENANT of ' +
          'the tenant on all gateways; Retry-After; before the body',
      ),
    },
  },
  errors: {
    method: 'get',
    path: '/jobs/:jobId/errors',
    scope: 'read',
    summary: 'The rows of an import that failed, in file order (NDJSON; CSV with Accept: text/csv)',
    description:
      'NDJSON: one line per failed row, { line, key, error: { code, message, details }, entry }. CSV: the uploaded ' +
      "file's columns plus error (an NDJSON import: line, key, entry, error), a file to fix and upload again; " +
      'a cell a spreadsheet would read as a formula (a leading =, +, -, @, tab or CR; not a negative number) ' +
      "starts with ' there. NDJSON keeps every value as sent.",
    tag: 'imports',
    responses: {
      200: {
        description: 'the failed rows',
        media: {
          'application/x-ndjson': { type: 'string' },
          'text/csv': { type: 'string' },
        },
      },
      404: error('no such import for this key'),
    },
  },
  cancel: {
    method: 'delete',
    path: '/jobs/:jobId',
    scope: 'write',
    summary: 'Cancel an import: rows written stay written; the job says how far it got',
    tag: 'imports',
    responses: {
      200: { description: 'cancelled', body: successSchema(importViewSchema) },
      404: error('no such import for this key'),
      409: error('INVALID_STATE: the import had finished'),
    },
  },
} satisfies Record<string, IntegrationRoute>;
