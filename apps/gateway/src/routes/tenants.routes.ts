import { type Router } from 'express';
import { createTenantSchema, type TokenService } from '@wms/identity';
import { validate } from '@wms/platform';
import type { Services } from '../services.js';
import { crossTenantAdminRequired } from '../http/index.js';
import { GUARDED, INVALID, adminRouter, error, listOf, ok, type AdminEndpoint } from './admin-route.js';

/**
 * Tenants are managed by role admin only, each route declared once. A tenant-bound admin sees its own tenant
 * and nothing else; creating tenants is for cross-tenant admins.
 */
export const TENANT_ROUTES: ReadonlyArray<AdminEndpoint<Pick<Services, 'tenants'>>> = [
  {
    method: 'post',
    path: '/tenants',
    tag: 'tenants',
    access: 'admin',
    summary: 'Create a tenant',
    body: createTenantSchema,
    bodyName: 'CreateTenant',
    responses: {
      201: ok('created', 'Tenant'),
      ...INVALID,
      ...GUARDED,
      409: error('TENANT_EXISTS: the code is taken'),
    },
    handle:
      ({ tenants }) =>
      async (req, res) => {
        if (req.principal.tenantId) throw crossTenantAdminRequired();
        const tenant = await tenants.create(validate(createTenantSchema, req.body));
        res.status(201).json(tenant);
      },
  },
  {
    method: 'get',
    path: '/tenants',
    tag: 'tenants',
    access: 'admin',
    summary: 'Every tenant',
    responses: { 200: ok('the tenants', listOf('Tenant')), ...GUARDED },
    handle:
      ({ tenants }) =>
      async (req, res) => {
        const own = req.principal.tenantId;
        if (!own) {
          res.json(await tenants.list());
          return;
        }
        const tenant = await tenants.findById(own);
        res.json(tenant ? [tenant] : []);
      },
  },
];

/** The tenants' router, made from their declarations (mounted on the admin base path itself). */
export function tenantsRoutes(services: Services, tokens: TokenService): Router {
  return adminRouter(TENANT_ROUTES, services, tokens);
}
