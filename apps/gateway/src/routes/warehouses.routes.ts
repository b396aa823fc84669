import { type Router } from 'express';
import type { TokenService } from '@wms/identity';
import { validate } from '@wms/platform';
import type { Services } from '../services.js';
import { createWarehouseSchema, listWarehousesQuerySchema } from '@wms/warehouse';
import { tenantScopeOf } from '../http/index.js';
import { GUARDED, INVALID, adminRouter, error, listOf, moduleAccess, ok, type AdminEndpoint } from './admin-route.js';

/** Warehouses of a tenant (module `warehouses`), each route declared once. */
export const WAREHOUSE_ROUTES: ReadonlyArray<AdminEndpoint<Pick<Services, 'tenants' | 'warehouses'>>> = [
  {
    method: 'post',
    path: '/warehouses',
    tag: 'warehouses',
    access: moduleAccess('warehouses', 'post'),
    summary: "Create a warehouse (with its RECEIVING location) in the user's tenant, or the one named",
    body: createWarehouseSchema,
    bodyName: 'CreateWarehouse',
    responses: {
      201: ok('created', 'Warehouse'),
      ...INVALID,
      ...GUARDED,
      409: error('the code is taken in the tenant'),
    },
    handle:
      ({ tenants, warehouses }) =>
      async (req, res) => {
        const input = validate(createWarehouseSchema, req.body);
        const tenantId = tenantScopeOf(req.principal, input.tenantId, true)!;
        await tenants.requireExisting(tenantId);
        const warehouse = await warehouses.create({ tenantId, code: input.code, name: input.name });
        res.status(201).json(warehouse);
      },
  },
  {
    method: 'get',
    path: '/warehouses',
    tag: 'warehouses',
    access: moduleAccess('warehouses', 'get'),
    summary: "The warehouses of the user's tenant (a cross-tenant user: all, or the tenant named)",
    query: listWarehousesQuerySchema,
    responses: { 200: ok('the warehouses', listOf('Warehouse')), ...INVALID, ...GUARDED },
    handle:
      ({ warehouses }) =>
      async (req, res) => {
        const query = validate(listWarehousesQuerySchema, req.query);
        const tenantId = tenantScopeOf(req.principal, query.tenantId, false);
        res.json(await warehouses.list(tenantId));
      },
  },
];

/** The warehouses' router, made from their declarations (mounted on the admin base path itself). */
export function warehousesRoutes(services: Services, tokens: TokenService): Router {
  return adminRouter(WAREHOUSE_ROUTES, services, tokens);
}
