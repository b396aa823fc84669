import { IMPORT_MODULES, listImportsQuerySchema, uploadImportQuerySchema } from '../routes/imports.routes.js';
import { GUARDED, INVALID, NOT_FOUND, error, listOf, ok, type AdminRoute } from './admin-route.js';

const FILE = { type: 'string', description: 'the file, streamed' };

/** Which module each entity's imports need: read permission to see them, write permission to import. */
const MODULES = Object.entries(IMPORT_MODULES)
  .map(([entity, module]) => `${entity}: ${module}`)
  .join(', ');

const FORBIDDEN = { 403: error("the user lacks the permission of the import's module") };

/** File imports from the portal: the integration API's import service, owned by the signed-in user. */
export const IMPORT_ROUTES: AdminRoute[] = [
  {
    method: 'get',
    path: '/imports',
    tag: 'imports',
    access: 'signed-in',
    summary: 'The newest imports of the entities whose module the reader may read',
    description: `Modules by entity: ${MODULES}. A tenant-bound user sees its tenant's imports only.`,
    query: listImportsQuerySchema,
    responses: { 200: ok('the imports, newest first', listOf('Import')), ...INVALID, 401: GUARDED[401]! },
  },
  {
    method: 'post',
    path: '/imports',
    tag: 'imports',
    access: 'signed-in',
    summary: 'Import a file of entries (NDJSON, or CSV for items, partners and locations), gzip allowed',
    description:
      `Needs write permission of the entity's module (${MODULES}). The body is the file, streamed into ` +
      'PostgreSQL; the answer comes once every row is stored. Rows that are not valid are listed by ' +
      '/imports/{id}/errors.',
    query: uploadImportQuerySchema,
    requestMedia: { 'application/x-ndjson': FILE, 'text/csv': FILE },
    responses: {
      202: ok('stored; the import runs in the background', 'ImportAccepted'),
      ...INVALID,
      401: GUARDED[401]!,
      ...FORBIDDEN,
      404: error('the tenant does not exist (before the body is read)'),
      408: error(
        'UPLOAD_IDLE: no byte of the body for IMPORT_UPLOAD_IDLE_TIMEOUT_MS; UPLOAD_TOO_SLOW: slower than ' +
          'IMPORT_MIN_UPLOAD_BYTES_PER_SECOND over IMPORT_UPLOAD_RATE_WINDOW_MS; nothing is stored',
      ),
      413: error(
        'PAYLOAD_TOO_LARGE: over IMPORT_MAX_BYTES or IMPORT_MAX_ROWS; ROW_TOO_LARGE: a line or CSV record over ' +
          'IMPORT_MAX_ROW_BYTES or of more than 1,024 fields, its line in `line`; nothing is stored',
      ),
      415: error('UNSUPPORTED_MEDIA_TYPE: neither NDJSON nor CSV, or CSV for asn or orders'),
      429: error('TOO_MANY_IMPORTS: IMPORT_MAX_CONCURRENT_PER_KEY uploading, queued or running (before the body)'),
      503: error(
        'UPLOADS_BUSY: IMPORT_MAX_UPLOADS_IN_FLIGHT uploads on this gateway, or IMPORT_MAX_UPLOADS_PER_TENANT of ' +
          'the tenant on all gateways; Retry-After (before the body)',
      ),
    },
  },
  {
    method: 'get',
    path: '/imports/:id',
    tag: 'imports',
    access: 'signed-in',
    summary: 'One import and how far it got',
    responses: { 200: ok('the import', 'Import'), 401: GUARDED[401]!, ...NOT_FOUND },
  },
  {
    method: 'get',
    path: '/imports/:id/errors',
    tag: 'imports',
    access: 'signed-in',
    summary: 'The rows of an import that failed, in file order (NDJSON; CSV with Accept: text/csv)',
    description:
      'In CSV a cell a spreadsheet would read as a formula (a leading =, +, -, @, tab or CR; not a negative ' +
      "number) starts with '; NDJSON keeps every value as sent.",
    responses: {
      200: {
        description: 'the failed rows',
        media: { 'application/x-ndjson': { type: 'string' }, 'text/csv': { type: 'string' } },
      },
      401: GUARDED[401]!,
      ...NOT_FOUND,
    },
  },
  {
    method: 'delete',
    path: '/imports/:id',
    tag: 'imports',
    access: 'signed-in',
    summary: 'Cancel an import: rows written stay written; the answer says how far it got',
    responses: {
      200: ok('cancelled', 'Import'),
      401: GUARDED[401]!,
      ...FORBIDDEN,
      ...NOT_FOUND,
      409: error('INVALID_STATE: the import had finished'),
    },
  },
];
