import { Router } from 'express';
import Joi from 'joi';
import { validate, type Services, type TokenService } from '@wms/shared';
import { requireJwt, requireModule } from '../http/jwt-guard.js';
import { tenantScopeOf } from '../http/tenant-scope.js';

const querySchema = Joi.object({
  entityType: Joi.string().max(100),
  entityId: Joi.string().max(200),
  tenantId: Joi.string().uuid(),
  limit: Joi.number().integer().min(1).max(500).default(100),
});

/** `GET /api/v1/audit-logs` (module `audit`): newest first; a tenant-bound user sees its tenant's entries only. */
export function auditLogsRoutes(services: Services, tokens: TokenService): Router {
  const router = Router();
  router.use(requireJwt(tokens), requireModule('audit'));

  router.get('/', async (req, res) => {
    const query = validate(querySchema, req.query);
    const tenantId = tenantScopeOf(req.principal!, query.tenantId, false);
    res.json(await services.audit.list({ entityType: query.entityType, entityId: query.entityId, tenantId, limit: query.limit }));
  });

  return router;
}
