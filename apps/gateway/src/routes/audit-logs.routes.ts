import { type Router } from 'express';
import { auditListQuerySchema, type TokenService } from '@wms/identity';
import { validate } from '@wms/platform';
import type { Services } from '../services.js';
import { requireJwt, requireModule } from '../http/jwt-guard.js';
import { personRoutes } from '../http/caller.js';
import { setNextPage } from '../http/next-page.js';
import { tenantScopeOf } from '../http/tenant-scope.js';
import { caseSensitiveRouter } from '../http/router.js';

/**
 * `GET /api/v1/audit-logs` (module `audit`): newest first, filtered by entity, action, actor and time,
 * paged by cursor; a tenant-bound user sees its tenant's entries only.
 */
export function auditLogsRoutes(services: Services, tokens: TokenService): Router {
  const router = caseSensitiveRouter();
  router.use(requireJwt(tokens), requireModule('audit'));
  const routes = personRoutes(router);

  routes.get('/', async (req, res) => {
    const { tenantId: requested, ...query } = validate(auditListQuerySchema, req.query, 'Invalid query');
    const tenantId = tenantScopeOf(req.principal, requested, false);
    const page = await services.audit.list({ ...query, tenantId });
    setNextPage(req, res, page.nextCursor);
    res.json(page.data);
  });

  return router;
}
