import express, { type Express } from 'express';
import { closeWithin, openReadRouting, type AppLifecycle, type Runtime, queuePrefix } from '@wms/platform';
import { gatewayProcessMetrics } from '@wms/setup';
import type { Services } from './services.js';
import { createMaintenanceQueue } from '@wms/setup';
import { createIngestQueue } from '@wms/ingest';
import { ASYNCAPI_PATH, DeliveryEnqueuer, createWebhookDeliveryQueue } from '@wms/webhooks';
import {
  caseSensitiveRouter,
  createApiKeyAccess,
  errorHandler,
  httpMetrics,
  inOrder,
  notFoundHandler,
  parseJsonBody,
  readsFollowWrites,
  refuseNulInTarget,
  requestContext,
  requestDeadline,
  securityHeaders,
  type ApiKeyAccess,
  type ApiKeyAccessOptions,
} from './http/index.js';
import {
  asyncApiRoute,
  createImportsService,
  docsRoutes,
  INTEGRATION_BASE_PATH,
  integrationRouter,
  OPENAPI_PATH,
  openApiRoute,
} from './integration/index.js';
import { metricsRoute } from './routes/metrics.routes.js';
import { QUEUE_CONSOLE_PATH, queueConsoleRoutes, queueConsoleSessionRoutes } from './routes/queue-console.routes.js';
import { authRoutes } from './routes/auth.routes.js';
import { healthRoutes } from './routes/health.routes.js';
import { tenantsRoutes } from './routes/tenants.routes.js';
import { warehousesRoutes } from './routes/warehouses.routes.js';
import { usersRoutes } from './routes/users.routes.js';
import { apiKeysRoutes } from './routes/api-keys.routes.js';
import { apiVersionsRoutes } from './routes/api-versions.routes.js';
import { auditLogsRoutes } from './routes/audit-logs.routes.js';
import { webhooksRoutes } from './routes/webhooks.routes.js';
import { ediPartnersRoutes } from './routes/edi-partners.routes.js';
import { operationsRoutes } from './routes/operations.routes.js';
import { ADMIN_PORTAL_PATH, adminPortalRoutes } from './routes/admin-portal.routes.js';
import { overviewRoutes } from './routes/overview.routes.js';
import { importsAdminRoutes } from './routes/imports.routes.js';
import { ADMIN_OPENAPI_PATH, adminOpenApiRoute } from './admin-openapi/admin-openapi.js';

export { createGatewayServer } from './http/index.js';

export interface GatewayDeps {
  runtime: Runtime;
  services: Services;
  /** Resources the app opens (the ingest queue and its events); the caller drains and closes them on shutdown. */
  lifecycle: AppLifecycle;
  /** Tests only: e.g. a short rate-limit window. Production always runs the defaults. */
  apiKeys?: Partial<ApiKeyAccessOptions>;
}

export interface Gateway {
  app: Express;
  /** The API-key guard's state; closed with the runtime (request log flushed, subscriber closed). */
  apiKeyAccess: ApiKeyAccess;
}

/** The gateway's Express app; its background resources close when `runtime.close()` runs. */
export function createApp(deps: GatewayDeps): Express {
  return createGateway(deps).app;
}

export function createGateway({ runtime, services, lifecycle, apiKeys }: GatewayDeps): Gateway {
  const { config, logger } = runtime;
  const apiKeyAccess = createApiKeyAccess(runtime, services, apiKeys);
  const tokens = services.auth.tokens;
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', parseTrustProxy(config.trustProxy));
  app.set('etag', false);
  // Before the first route, which builds the app's router with it (see http/router.ts).
  app.set('case sensitive routing', true);

  // Producer queues share the gateway's fail-fast Redis connection; closing them leaves it to runtime.close().
  const webhookQueue = createWebhookDeliveryQueue(runtime.redis, queuePrefix(config), config.webhook.maxAttempts);
  const ingestQueue = createIngestQueue({ connection: runtime.redis, prefix: queuePrefix(config) });
  // Read by the queue console only: the ingest workers schedule and run the maintenance jobs.
  const maintenanceQueue = createMaintenanceQueue(runtime.redis, queuePrefix(config));
  for (const queue of [webhookQueue, ingestQueue, maintenanceQueue]) {
    queue.on('error', () => undefined);
    lifecycle.onClose(() => closeWithin(queue, 2_000));
  }
  const metrics = gatewayProcessMetrics([ingestQueue, webhookQueue]);

  // Every request passes these, as one layer (its deadline among them); then the integration API, whose inquiries are the most
  // frequent calls (each layer before it would cost them a path match).
  app.use(
    inOrder(
      httpMetrics(),
      requestContext(logger, apiKeyAccess.recordAnswer),
      requestDeadline(config.requestTimeoutMs, errorHandler(logger)),
      refuseNulInTarget,
      securityHeaders(),
    ),
  );
  // With DATABASE_READ_URLS, inquiries and lists read from replicas that have replayed their caller's writes.
  const readRouting = openReadRouting(runtime);
  if (readRouting) {
    runtime.onClose(() => readRouting.close());
    app.use(readsFollowWrites(readRouting, logger));
  }
  // Mounted before /api/v1 so the admin JSON parser does not read integration bodies before the API-key guard.
  // The OpenAPI document is public; everything else under the integration API passes the API-key guard.
  app.get(OPENAPI_PATH, openApiRoute(services, runtime.config.apiVersions));
  app.get(ASYNCAPI_PATH, asyncApiRoute(runtime.config.apiVersions));
  app.use(INTEGRATION_BASE_PATH, integrationRouter(runtime, services, lifecycle, apiKeyAccess.guard));
  app.get('/metrics', metricsRoute(metrics, config.metricsToken));
  app.use('/health', healthRoutes(runtime));
  // Before the admin portal's /admin pages, so their fallback never answers for the console.
  app.use(
    QUEUE_CONSOLE_PATH,
    queueConsoleRoutes(tokens, runtime.db, {
      ingest: ingestQueue,
      webhook: webhookQueue,
      maintenance: maintenanceQueue,
    }),
  );
  app.use('/docs', docsRoutes(runtime.config.apiVersions));
  app.get(ADMIN_OPENAPI_PATH, adminOpenApiRoute());

  // A file upload: streamed, so mounted before the admin API's JSON body parser.
  app.use('/api/v1', importsAdminRoutes(createImportsService(runtime, services, lifecycle), tokens, services.tenants));
  const api = caseSensitiveRouter();
  api.use(parseJsonBody());
  // Every way of trying a password shares one per-address budget of failures.
  api.post(['/auth/login', '/auth/register', '/auth/change-password'], apiKeyAccess.loginThrottle);
  api.use(queueConsoleSessionRoutes(tokens, config.nodeEnv === 'production'));
  api.use(
    authRoutes(services, tokens, {
      secureCookies: config.nodeEnv === 'production',
      refreshTtlSeconds: config.jwt.refreshTtlSeconds,
    }),
  );
  api.use(tenantsRoutes(services, tokens));
  api.use(warehousesRoutes(services, tokens));
  api.use(usersRoutes(services, tokens));
  api.use(apiKeysRoutes(services, tokens));
  api.use(apiVersionsRoutes(config.apiVersions, tokens));
  api.use(auditLogsRoutes(services, tokens));
  api.use(
    webhooksRoutes(services, tokens, new DeliveryEnqueuer(runtime.db, webhookQueue, { addTimeoutMs: 300 }), logger),
  );
  api.use(ediPartnersRoutes(services, tokens));
  api.use(overviewRoutes(services, tokens, { ingest: ingestQueue, webhook: webhookQueue }));
  api.use(operationsRoutes(runtime, services, tokens));
  app.use('/api/v1', api);

  app.get('/', (_req, res) => res.redirect(302, `${ADMIN_PORTAL_PATH}/`));
  app.use(ADMIN_PORTAL_PATH, adminPortalRoutes());

  app.use(notFoundHandler);
  app.use(errorHandler(logger));
  return { app, apiKeyAccess };
}

/** TRUST_PROXY accepts what Express accepts: true/false, a hop count, or names and CIDRs ("loopback", "10.0.0.0/8"). */
export function parseTrustProxy(value: string): boolean | number | string[] {
  if (value === 'true') return true;
  if (value === 'false') return false;
  if (/^\d+$/.test(value)) return Number(value);
  return value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
}

/** The services this process composes; the test harness builds the same. */
export { createServices, type Services, type ServicesWiring } from './services.js';
