import { type Router } from 'express';
import { hasModulePermission, type AdminModule, type Principal, type TokenService } from '@wms/identity';
import { AppError, Joi, validate } from '@wms/platform';
import type { ImportsService, StoredImport } from '@wms/ingest';
import type { Services } from '../services.js';
import { requireJwt } from '../http/jwt-guard.js';
import { personRoutes, type PersonRequest } from '../http/caller.js';
import { tenantScopeOf } from '../http/tenant-scope.js';
import { withoutDeadline } from '../http/request-deadline.js';
import { acceptFile, closingUnread, sendErrors } from '../integration/imports.routes.js';
import { caseSensitiveRouter } from '../http/router.js';

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

/**
 * `/api/v1/imports` for the portal (JWT): the same import service as the integration API's
 * POST /imports, owned by the user. Importing an entity needs write permission of its module
 * (IMPORT_MODULES), seeing its imports read permission; a tenant-bound user sees its tenant's only.
 * Mounted before the JSON body parser: the upload's body is a file, streamed; every refusal (a tenant that
 * does not exist included) answers before it is read.
 */
export function importsAdminRoutes(
  imports: ImportsService,
  tokens: TokenService,
  tenants: Pick<Services['tenants'], 'findById'>,
): Router {
  const router = caseSensitiveRouter();
  router.use(requireJwt(tokens));
  const routes = personRoutes(router);

  routes.get('/', async (req, res) => {
    const { tenantId: requested, limit } = validate<{ tenantId?: string; limit: number }>(
      listImportsQuerySchema,
      req.query,
      'Invalid query',
    );
    const principal = req.principal;
    const tenantId = tenantScopeOf(principal, requested, false);
    const entities = Object.keys(IMPORT_MODULES).filter((entity) => allowed(principal, entity, 'read'));
    res.json(await imports.list(tenantId, entities, limit));
  });

  routes.post('/', withoutDeadline, async (req, res) => {
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
    res.status(202).json({ status: 'accepted', jobId, statusUrl, requestId: req.requestId });
  });

  routes.get('/:id', async (req, res) => {
    const job = await visibleImport(imports, req, 'read');
    res.json(await imports.view(job.id));
  });

  routes.get('/:id/errors', async (req, res) => {
    await sendErrors(imports, await visibleImport(imports, req, 'read'), req, res);
  });

  routes.delete('/:id', async (req, res) => {
    const job = await visibleImport(imports, req, 'write');
    res.json(await imports.cancel(job.id));
  });

  return router;
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
