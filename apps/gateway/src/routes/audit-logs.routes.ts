import { type Router } from 'express';
import { auditListQuerySchema, type TokenService } from '@wms/identity';
import { validate } from '@wms/platform';
import type { Services } from '../services.js';
import { setNextPage, tenantScopeOf } from '../http/index.js';
import {
  GUARDED,
  INVALID,
  NEXT_PAGE_HEADERS,
  adminRouter,
  listOf,
  moduleAccess,
  type AdminEndpoint,
} from './admin-route.js';

/**
 * `GET /api/v1/audit-logs` (module `audit`), declared once: newest first, filtered by entity, action, actor
 * and time, paged by cursor; a tenant-bound user sees its tenant's entries only.
 */
export const AUDIT_LOG_ROUTES: ReadonlyArray<AdminEndpoint<Pick<Services, 'audit'>>> = [
  {
    method: 'get',
    path: '/audit-logs',
    tag: 'audit',
    access: moduleAccess('audit', 'get'),
    summary: 'The audit trail, newest first, filtered by entity, action, actor and time; one page per call',
    query: auditListQuerySchema,
    responses: {
      200: { description: 'one page', body: listOf('AuditEntry'), headers: NEXT_PAGE_HEADERS },
      ...INVALID,
      ...GUARDED,
    },
    handle:
      ({ audit }) =>
      async (req, res) => {
        const { tenantId: requested, ...query } = validate(auditListQuerySchema, req.query, 'Invalid query');
        const tenantId = tenantScopeOf(req.principal, requested, false);
        const page = await audit.list({ ...query, tenantId });
        setNextPage(req, res, page.nextCursor);
        res.json(page.data);
      },
  },
];

/** The audit trail's router, made from its declaration (mounted on the admin base path itself). */
export function auditLogsRoutes(services: Services, tokens: TokenService): Router {
  return adminRouter(AUDIT_LOG_ROUTES, services, tokens);
}
