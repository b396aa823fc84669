import { Router } from 'express';
import Joi from 'joi';
import { validate, type Services, type TokenService } from '@wms/shared';
import { requireAdminRole, requireJwt } from '../http/jwt-guard.js';

const createTenantSchema = Joi.object({
  code: Joi.string().trim().pattern(/^[A-Za-z0-9_-]{1,64}$/).required(),
  name: Joi.string().trim().min(1).max(200).required(),
});

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
