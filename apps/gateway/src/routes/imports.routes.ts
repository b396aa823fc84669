import { type Router } from 'express';
import { hasModulePermission, type AdminModule, type Principal, type TokenService } from '@wms/identity';
import { AppError, Joi, validate } from '@wms/platform';
import type { ImportsService, StoredImport } from '@wms/ingest';
import type { Services } from '../services.js';
import { requestIdOf, tenantScopeOf, withoutDeadline, type PersonRequest } from '../http/index.js';
import { acceptFile, closingUnread, sendErrors } from '../integration/index.js';
import { GUARDED, INVALID, NOT_FOUND, adminRouter, error, listOf, ok, type AdminEndpoint } from './admin-route.js';

/** The module whose permissions cover importing an entity: master data is the warehouses' module. */
export const IMPORT_MODULES: Record<string, AdminModule> = {
  items: 'warehouses',
  partners: 'warehouses',
  locations: 'warehouses',
  asn: 'inbound',
  orders: 'orders',
};

/** GET /api/v1/imports: the query it validates (the admin OpenAPI document shows it). */
export const listImportsQuerySchema = Joi.object({
  tenantId: Joi.string().guid(),
  limit: Joi.number().integer().min(1).max(500).default(100),
});

/** POST /api/v1/imports: the query it validates. */
export const uploadImportQuerySchema = Joi.object({
  entity: Joi.string()
    .valid(...Object.keys(IMPORT_MODULES))
    .required(),
  tenantId: Joi.string().guid(),
});

const allowed = (principal: Principal, entity: string, access: 'read' | 'write') =>
  !!IMPORT_MODULES[entity] && hasModulePermission(principal, IMPORT_MODULES[entity]!, access);

interface Deps {
  imports: ImportsService;
  tenants: Pick<Services['tenants'], 'findById'>;
}

const FILE = { type: 'string', description: 'the file, streamed' };

/** Which module each entity's imports need: read permission to see them, write permission to import. */
const MODULES = Object.entries(IMPORT_MODULES)
  .map(([entity, module]) => `${entity}: ${module}`)
  .join(', ');

const FORBIDDEN = { 403: error("the user lacks the permission of the import's module") };

/**
 * `/api/v1/imports` for the portal (JWT), each route declared once: the same import service as the
 * integration API's POST /imports, owned by the user. Importing an entity needs write permission of its
 * module (IMPORT_MODULES), seeing its imports read permission; a tenant-bound user sees its tenant's only.
 * Mounted before the JSON body parser: the upload's body is a file, streamed; every refusal (a tenant that
 * does not exist included) answers before it is read.
 */
export const IMPORT_ROUTES: ReadonlyArray<AdminEndpoint<Deps>> = [
  {
    method: 'get',
    path: '/imports',
    tag: 'imports',
    access: 'signed-in',
    summary: 'The newest imports of the entities whose module the reader may read',
    description: `Modules by entity: ${MODULES}. A tenant-bound user sees its tenant's imports only.`,
    query: listImportsQuerySchema,
    responses: { 200: ok('the imports, newest first', listOf('Import')), ...INVALID, 401: GUARDED[401]! },
    handle:
      ({ imports }) =>
      async (req, res) => {
        const { tenantId: requested, limit } = validate<{ tenantId?: string; limit: number }>(
          listImportsQuerySchema,
          req.query,
          'Invalid query',
        );
        const principal = req.principal;
        const tenantId = tenantScopeOf(principal, requested, false);
        const entities = Object.keys(IMPORT_MODULES).filter((entity) => allowed(principal, entity, 'read'));
        res.json(await imports.list(tenantId, entities, limit));
      },
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
    before: [() => withoutDeadline],
    handle:
      ({ imports, tenants }) =>
      async (req, res) => {
        const principal = req.principal;
        const tenantId = await closingUnread(req, res, async () => {
          const query = validate<{ entity: string; tenantId?: string }>(
            uploadImportQuerySchema,
            req.query,
            'Invalid query',
          );
          if (!allowed(principal, query.entity, 'write'))
            throw AppError.forbidden(`Missing write permission for module ${IMPORT_MODULES[query.entity]}`);
          const scoped = tenantScopeOf(principal, query.tenantId, true)!;
          if (!(await tenants.findById(scoped))) throw AppError.notFound(`Tenant ${scoped} not found`);
          return scoped;
        });
        const { jobId, statusUrl } = await acceptFile(imports, req, res, { userId: principal.sub }, tenantId);
        res.status(202).json({ status: 'accepted', jobId, statusUrl, requestId: requestIdOf(req) });
      },
  },
  {
    method: 'get',
    path: '/imports/:id',
    tag: 'imports',
    access: 'signed-in',
    summary: 'One import and how far it got',
    responses: { 200: ok('the import', 'Import'), 401: GUARDED[401]!, ...NOT_FOUND },
    handle:
      ({ imports }) =>
      async (req, res) => {
        const job = await visibleImport(imports, req, 'read');
        res.json(await imports.view(job.id));
      },
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
    handle:
      ({ imports }) =>
      async (req, res) => {
        await sendErrors(imports, await visibleImport(imports, req, 'read'), req, res);
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
    handle:
      ({ imports }) =>
      async (req, res) => {
        const job = await visibleImport(imports, req, 'write');
        res.json(await imports.cancel(job.id));
      },
  },
];

/** The imports' router, made from their declarations (mounted on the admin base path, before its JSON parser). */
export function importsAdminRoutes(imports: ImportsService, tokens: TokenService, tenants: Deps['tenants']): Router {
  return adminRouter(IMPORT_ROUTES, { imports, tenants }, tokens);
}

/** An import the user may see (its tenant, its entity's module): anything else is not found. */
async function visibleImport(
  imports: ImportsService,
  req: PersonRequest,
  access: 'read' | 'write',
): Promise<StoredImport> {
  const principal = req.principal;
  const id = String(req.params.id);
  const job = await imports.find(id);
  if (!job || (principal.tenantId && job.tenantId !== principal.tenantId) || !allowed(principal, job.entity, 'read'))
    throw AppError.notFound(`Import ${id} not found`);
  if (!allowed(principal, job.entity, access))
    throw AppError.forbidden(`Missing ${access} permission for module ${IMPORT_MODULES[job.entity]}`);
  return job;
}
