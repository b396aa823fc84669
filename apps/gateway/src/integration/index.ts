/**
 * The integration API as the gateway's other folders see it (docs/adr/0064-gateway-request-path.md): the
 * app mounts it from here, and the admin routes reuse its file upload and its Idempotency-Key from here.
 */
export { OPENAPI_PATH, docsRoutes, openApiRoute } from './docs.routes.js';
export { INTEGRATION_BASE_PATH } from './entities.routes.js';
export { asyncApiRoute } from './event-types.routes.js';
export { idempotency, idempotencyOf, type RequestIdempotency } from './idempotency.middleware.js';
export { acceptFile, closingUnread, createImportsService, sendErrors } from './imports.routes.js';
export { integrationRouter } from './integration.router.js';
