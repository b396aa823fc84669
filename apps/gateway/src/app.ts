import './http/types.js';
import express, { type Express } from 'express';
import helmet from 'helmet';
import { DeliveryEnqueuer, createWebhookDeliveryQueue, settleWithin, type AppLifecycle, type Runtime, type Services } from '@wms/shared';
import { BODY_LIMIT } from './http/body.js';
import { errorHandler, notFoundHandler } from './http/errors.js';
import { integrationRouter } from './integration/integration.router.js';
import { docsRoutes, openApiRoutes } from './integration/docs.routes.js';
import { requestContext } from './http/request-context.js';
import { authRoutes } from './routes/auth.routes.js';
import { healthRoutes } from './routes/health.routes.js';
import { tenantsRoutes } from './routes/tenants.routes.js';
import { warehousesRoutes } from './routes/warehouses.routes.js';
import { usersRoutes } from './routes/users.routes.js';
import { createApiKeyAccess, type ApiKeyAccess, type ApiKeyAccessOptions } from './http/api-key-access.js';
import { apiKeysRoutes } from './routes/api-keys.routes.js';
import { auditLogsRoutes } from './routes/audit-logs.routes.js';
import { webhooksRoutes } from './routes/webhooks.routes.js';
import { operationsRoutes } from './routes/operations.routes.js';

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

  app.use(requestContext(logger));
  app.use(helmet());
  app.use('/health', healthRoutes(runtime));

  // Mounted before /api/v1 so the admin JSON parser does not read integration bodies before the API-key guard.
  // The OpenAPI document is public; everything else under the integration API passes the API-key guard.
  app.use('/api/v1/integration/v1', openApiRoutes(services), apiKeyAccess.guard, integrationRouter(runtime, services, lifecycle));
  app.use('/docs', docsRoutes(services));

  // Producer queues share the gateway's fail-fast Redis connection; closing them leaves it to runtime.close().
  const webhookQueue = createWebhookDeliveryQueue(runtime.redis, config.redisKeyPrefix, config.webhook.maxAttempts);
  webhookQueue.on('error', () => undefined);
  lifecycle.onClose(() => settleWithin(webhookQueue.close(), 2_000));

  const api = express.Router();
  api.use(express.json({ limit: BODY_LIMIT }));
  api.post('/auth/login', apiKeyAccess.loginThrottle);
  api.use('/auth', authRoutes(services));
  api.use('/tenants', tenantsRoutes(services, tokens));
  api.use('/warehouses', warehousesRoutes(services, tokens));
  api.use('/users', usersRoutes(services, tokens));
  api.use('/api-keys', apiKeysRoutes(services, tokens));
  api.use('/audit-logs', auditLogsRoutes(services, tokens));
  api.use('/webhooks', webhooksRoutes(services, tokens, new DeliveryEnqueuer(runtime.db, webhookQueue, { addTimeoutMs: 2_000 }), logger));
  api.use(operationsRoutes(runtime, services, tokens));
  app.use('/api/v1', api);

  app.use(notFoundHandler);
  app.use(errorHandler(logger));
  return { app, apiKeyAccess };
}

/** TRUST_PROXY accepts what Express accepts: true/false, a hop count, or names and CIDRs ("loopback", "10.0.0.0/8"). */
export function parseTrustProxy(value: string): boolean | number | string[] {
  if (value === 'true') return true;
  if (value === 'false') return false;
  if (/^\d+$/.test(value)) return Number(value);
  return value.split(',').map((part) => part.trim()).filter(Boolean);
}
