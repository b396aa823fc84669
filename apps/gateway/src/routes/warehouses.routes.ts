import { type Router } from 'express';
import type { TokenService } from '@wms/identity';
import { validate } from '@wms/platform';
import type { Services } from '../services.js';
import { createWarehouseSchema, listWarehousesQuerySchema } from '@wms/warehouse';
import { requireJwt, requireModule } from '../http/jwt-guard.js';
import { personRoutes } from '../http/caller.js';
import { tenantScopeOf } from '../http/tenant-scope.js';
import { caseSensitiveRouter } from '../http/router.js';

export function warehousesRoutes(services: Services, tokens: TokenService): Router {
  const router = caseSensitiveRouter();
  router.use(requireJwt(tokens), requireModule('warehouses'));
  const routes = personRoutes(router);

  routes.post('/', async (req, res) => {
    const input = validate(createWarehouseSchema, req.body);
    const tenantId = tenantScopeOf(req.principal, input.tenantId, true)!;
    await services.tenants.requireExisting(tenantId);
    const warehouse = await services.warehouses.create({ tenantId, code: input.code, name: input.name });
    res.status(201).json(warehouse);
  });

  routes.get('/', async (req, res) => {
    const query = validate(listWarehousesQuerySchema, req.query);
    const tenantId = tenantScopeOf(req.principal, query.tenantId, false);
    res.json(await services.warehouses.list(tenantId));
  });

  return router;
}
