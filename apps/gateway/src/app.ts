import './http/types.js';
import express, { type Express } from 'express';
import helmet from 'helmet';
import { DeliveryEnqueuer, createWebhookDeliveryQueue, type Runtime, type Services } from '@wms/shared';
import { BODY_LIMIT } from './http/body.js';
import { errorHandler, notFoundHandler } from './http/errors.js';
import { integrationRouter } from './integration/integration.router.js';
import { requestContext } from './http/request-context.js';
import { authRoutes } from './routes/auth.routes.js';
import { healthRoutes } from './routes/health.routes.js';
import { tenantsRoutes } from './routes/tenants.routes.js';
import { warehousesRoutes } from './routes/warehouses.routes.js';
import { webhooksRoutes } from './routes/webhooks.routes.js';

export interface GatewayDeps {
  runtime: Runtime;
  services: Services;
  /** createApp registers here what it opens (producer queues); the caller runs the hooks at shutdown, before runtime.close(). */
  onClose: (hook: () => Promise<void>) => void;
}

export function createApp({ runtime, services, onClose }: GatewayDeps): Express {
  const { config, logger } = runtime;
  const tokens = services.auth.tokens;
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', parseTrustProxy(config.trustProxy));
  app.set('etag', false);

  app.use(requestContext(logger));
  app.use(helmet());
  app.use('/health', healthRoutes(runtime));

  // Mounted before /api/v1 so the admin JSON parser does not read integration bodies before the API-key guard.
  app.use('/api/v1/integration/v1', integrationRouter(runtime, services));

  // Producer queues share the gateway's fail-fast Redis connection; closing them leaves it to runtime.close().
  const webhookQueue = createWebhookDeliveryQueue(runtime.redis, config.redisKeyPrefix, config.webhook.maxAttempts);
  webhookQueue.on('error', () => undefined);
  onClose(() => webhookQueue.close());

  const api = express.Router();
  api.use(express.json({ limit: BODY_LIMIT }));
  api.use('/auth', authRoutes(services));
  api.use('/tenants', tenantsRoutes(services, tokens));
  api.use('/warehouses', warehousesRoutes(services, tokens));
  api.use('/webhooks', webhooksRoutes(services, tokens, new DeliveryEnqueuer(runtime.db, webhookQueue, { addTimeoutMs: 2_000 }), logger));
  app.use('/api/v1', api);

  app.use(notFoundHandler);
  app.use(errorHandler(logger));
  return app;
}

/** TRUST_PROXY accepts what Express accepts: true/false, a hop count, or names and CIDRs ("loopback", "10.0.0.0/8"). */
export function parseTrustProxy(value: string): boolean | number | string[] {
  if (value === 'true') return true;
  if (value === 'false') return false;
  if (/^\d+$/.test(value)) return Number(value);
  return value.split(',').map((part) => part.trim()).filter(Boolean);
}
