/**
 * The HTTP edge as the gateway's other folders see it (docs/adr/0064-gateway-request-path.md): they import
 * from here, never from a file of this folder, so what the edge keeps to itself can move without them.
 */
export { ADMIN_BASE_PATH, ADMIN_OPENAPI_PATH } from './admin-paths.js';
export { answerPipeline } from './answer-pipeline.js';
export { createApiKeyAccess, type ApiKeyAccess, type ApiKeyAccessOptions } from './api-key-access.js';
export { requireScope } from './api-key-guard.js';
export { parseJsonBody } from './body.js';
export {
  keyOf,
  personRoutes,
  withKey,
  withPerson,
  type KeyHandler,
  type KeyRequest,
  type PersonHandler,
  type PersonRequest,
  type PersonRoutes,
} from './caller.js';
export { readCookie } from './cookies.js';
export { errorHandler, notFoundHandler, useErrorFormat } from './errors.js';
export { httpMetrics } from './http-metrics.js';
export { inOrder } from './in-order.js';
export {
  crossTenantAdminRequired,
  requireAdminRole,
  requireCrossTenantAdmin,
  requireJwt,
  requireModule,
  requirePermission,
} from './jwt-guard.js';
export { setNextPage } from './next-page.js';
export { strictPageCsp } from './page-csp.js';
export { beforeTellingOfWrites, readsFollowWrites } from './reads-follow-writes.js';
export { requestContext } from './request-context.js';
export { extendDeadline, liftDeadline, requestDeadline, withoutDeadline } from './request-deadline.js';
export { apiVersionOf, rawBodyOf, requestIdOf, setApiVersion, setRawBody, traceIdOf } from './request-state.js';
export { refuseNulInTarget } from './request-target.js';
export { caseSensitiveRouter } from './router.js';
export { securityHeaders } from './security-headers.js';
export { createGatewayServer } from './server.js';
export { ServerDrain } from './server-drain.js';
export { tenantScopeOf } from './tenant-scope.js';
