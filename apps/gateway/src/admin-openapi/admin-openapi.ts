import type { RequestHandler } from 'express';
import { IDEMPOTENCY_KEY_PARAMETER, buildOpenApi } from '@wms/platform';
import { ADMIN_TAGS, type AdminAccess, type AdminRoute } from '../routes/admin-route.js';
import { ADMIN_ANSWER_SCHEMAS } from './answers.js';

import { ADMIN_BASE_PATH, ADMIN_OPENAPI_PATH } from '../http/index.js';
import { AUTH_ROUTES } from '../routes/auth.routes.js';
import { QUEUE_CONSOLE_SESSION_ROUTES } from '../routes/queue-console.routes.js';
import { OPERATION_ROUTES } from '../routes/operations.routes.js';
import { EDI_PARTNER_ROUTES } from '../routes/edi-partners.routes.js';
import { TENANT_ROUTES } from '../routes/tenants.routes.js';
import { WAREHOUSE_ROUTES } from '../routes/warehouses.routes.js';
import { USER_ROUTES } from '../routes/users.routes.js';
import { OVERVIEW_ROUTES } from '../routes/overview.routes.js';
import { API_KEY_ROUTES } from '../routes/api-keys.routes.js';
import { API_VERSION_ROUTES } from '../routes/api-versions.routes.js';
import { AUDIT_LOG_ROUTES } from '../routes/audit-logs.routes.js';
import { WEBHOOK_ROUTES } from '../routes/webhooks.routes.js';
import { IMPORT_ROUTES } from '../routes/imports.routes.js';

export { ADMIN_BASE_PATH, ADMIN_OPENAPI_PATH };

/**
 * The admin API's routes, each declared once beside its handler (routes/admin-route.ts): method, path, who may
 * call it, the request schemas the route validates with, and the answers. The gateway's routers and this
 * document are made from the same entries, in the document's order.
 */
export const ADMIN_ROUTES: readonly AdminRoute[] = [
  ...AUTH_ROUTES,
  ...QUEUE_CONSOLE_SESSION_ROUTES,
  ...OVERVIEW_ROUTES,
  ...TENANT_ROUTES,
  ...WAREHOUSE_ROUTES,
  ...USER_ROUTES,
  ...API_VERSION_ROUTES,
  ...API_KEY_ROUTES,
  ...AUDIT_LOG_ROUTES,
  ...WEBHOOK_ROUTES,
  ...OPERATION_ROUTES,
  ...IMPORT_ROUTES,
  ...EDI_PARTNER_ROUTES,
];

const BEARER = [{ BearerAuth: [] }];
const IDEMPOTENCY_KEY = [{ $ref: '#/components/parameters/IdempotencyKey' }];

function accessExtensions(access: AdminAccess): Record<string, unknown> {
  if (typeof access === 'string') return { 'x-access': access };
  return { 'x-access': 'module', 'x-module': access.module, 'x-permission': access.permission };
}

/** The admin API's OpenAPI 3.1 document, generated from the routes' declarations. */
export function adminOpenApiDocument(version = '1'): Record<string, unknown> {
  return buildOpenApi({
    info: {
      title: 'WMS admin API',
      version,
      description:
        'JWT-authenticated API of the admin portal: sign in at /auth/login and send the access token as ' +
        '`Authorization: Bearer <token>`. A route needs a signed-in user, role admin, or a module permission ' +
        "(`x-module`): GET needs the module in the user's adminModules, every other method in adminModulesWrite; " +
        'role admin passes every check. A tenant-bound user sees and changes its tenant only.\n\n' +
        'Errors answer `{ statusCode, message, error, code, details?, requestId }`. Paged lists answer a JSON array ' +
        'and name the next page in the `X-Next-Cursor` header.',
    },
    serverUrl: ADMIN_BASE_PATH,
    tags: Object.entries(ADMIN_TAGS).map(([name, description]) => ({ name, description })),
    routes: [...ADMIN_ROUTES],
    extrasOf: (route) => ({
      security: route.access === 'public' ? [] : BEARER,
      extensions: accessExtensions(route.access),
      parameters: route.idempotent ? IDEMPOTENCY_KEY : [],
    }),
    answers: ADMIN_ANSWER_SCHEMAS,
    parameters: { IdempotencyKey: IDEMPOTENCY_KEY_PARAMETER },
    securitySchemes: { BearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
  });
}

/**
 * GET /api/v1/openapi.json: public, no token (it describes request and answer shapes only), so client
 * generators, the docs page and the portal's type generation can read it.
 */
export function adminOpenApiRoute(): RequestHandler {
  const document = adminOpenApiDocument();
  return (_req, res) => {
    res.json(document);
  };
}
