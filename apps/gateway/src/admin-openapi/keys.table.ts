import { auditListQuerySchema } from '@wms/identity';
import { GUARDED, INVALID, NEXT_PAGE_HEADERS, listOf, moduleAccess, ok, type AdminRoute } from './admin-route.js';

/** The integration API's versions and the audit trail (the API keys are declared in routes/api-keys.routes.ts). */
export const KEY_ROUTES: AdminRoute[] = [
  {
    method: 'get',
    path: '/api-versions',
    tag: 'api-keys',
    access: 'signed-in',
    summary:
      "The integration API's dated versions, newest first, what each changed, and the one a new key or subscription gets here",
    responses: { 200: ok('the versions', 'ApiVersions'), ...GUARDED },
  },
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
  },
];
