import { type Router } from 'express';
import { createTenantSchema, type TokenService } from '@wms/identity';
import { validate } from '@wms/platform';
import type { Services } from '../services.js';
import { crossTenantAdminRequired, requireAdminRole, requireJwt } from '../http/jwt-guard.js';
import { personRoutes } from '../http/caller.js';
import { caseSensitiveRouter } from '../http/router.js';

/**
 * Tenants are managed by role admin only. A tenant-bound admin sees its own tenant and nothing else;
 * creating tenants is for cross-tenant admins.
 */
export function tenantsRoutes(services: Services, tokens: TokenService): Router {
  const router = caseSensitiveRouter();
  router.use(requireJwt(tokens), requireAdminRole);
  const routes = personRoutes(router);

  routes.post('/', async (req, res) => {
    if (req.principal.tenantId) throw crossTenantAdminRequired();
    const tenant = await services.tenants.create(validate(createTenantSchema, req.body));
    res.status(201).json(tenant);
  });

  routes.get('/', async (req, res) => {
    const own = req.principal.tenantId;
    if (!own) {
      res.json(await services.tenants.list());
      return;
    }
    const tenant = await services.tenants.findById(own);
    res.json(tenant ? [tenant] : []);
  });

  return router;
}
