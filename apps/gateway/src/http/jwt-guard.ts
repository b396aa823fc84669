import type { RequestHandler } from 'express';
import { accessForMethod, hasModulePermission, type AdminModule, type TokenService } from '@wms/identity';
import { AppError } from '@wms/platform';
import { attachPerson, personOf } from './caller.js';

/** Verifies `Authorization: Bearer <JWT>` (HS256, typ access) and attaches the payload (caller.ts). */
export function requireJwt(tokens: TokenService): RequestHandler {
  return (req, _res, next) => {
    const header = req.headers.authorization;
    const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
    if (!match?.[1]) throw AppError.unauthorized('Missing bearer token');
    attachPerson(req, tokens.verifyAccess(match[1]));
    next();
  };
}

/** Role admin passes; other roles need the module in adminModules (GET) or adminModulesWrite (others). */
export function requireModule(module: AdminModule): RequestHandler {
  return (req, _res, next) => {
    const principal = personOf(req);
    if (!principal) throw AppError.unauthorized('Missing bearer token');
    if (!hasModulePermission(principal, module, accessForMethod(req.method))) {
      throw AppError.forbidden(`Missing ${accessForMethod(req.method)} permission for module ${module}`);
    }
    next();
  };
}

/** As requireModule, for a route that declares the permission it needs (routes/admin-route.ts). */
export function requirePermission(module: AdminModule, permission: 'read' | 'write'): RequestHandler {
  return (req, _res, next) => {
    const principal = personOf(req);
    if (!principal) throw AppError.unauthorized('Missing bearer token');
    if (!hasModulePermission(principal, module, permission)) {
      throw AppError.forbidden(`Missing ${permission} permission for module ${module}`);
    }
    next();
  };
}

export const requireAdminRole: RequestHandler = (req, _res, next) => {
  if (personOf(req)?.role !== 'admin') throw AppError.forbidden('Admin role required');
  next();
};

/** Role admin bound to no tenant: what tenant creation and the queue console (every tenant's jobs) need. */
export const requireCrossTenantAdmin: RequestHandler = (req, _res, next) => {
  const principal = personOf(req);
  if (principal?.role !== 'admin') throw AppError.forbidden('Admin role required');
  if (principal.tenantId) throw crossTenantAdminRequired();
  next();
};

export function crossTenantAdminRequired(): AppError {
  return AppError.forbidden('A cross-tenant admin is required', 'CROSS_TENANT_ADMIN_REQUIRED');
}
