import { Router } from 'express';
import { createTenantSchema, validate, type Services, type TokenService } from '@wms/shared';
import { requireAdminRole, requireJwt } from '../http/jwt-guard.js';

/** Tenants are managed by role admin only. */
export function tenantsRoutes(services: Services, tokens: TokenService): Router {
  const router = Router();
  router.use(requireJwt(tokens), requireAdminRole);

  router.post('/', async (req, res) => {
    const tenant = await services.tenants.create(validate(createTenantSchema, req.body));
    res.status(201).json(tenant);
  });

  router.get('/', async (_req, res) => {
    res.json(await services.tenants.list());
  });

  return router;
}
