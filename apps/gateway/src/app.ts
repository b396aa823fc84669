import './http/types.js';
import express, { type Express } from 'express';
import helmet from 'helmet';
import type { AppLifecycle, Runtime, Services } from '@wms/shared';
import { BODY_LIMIT } from './http/body.js';
import { errorHandler, notFoundHandler } from './http/errors.js';
import { integrationRouter } from './integration/integration.router.js';
import { docsRoutes } from './integration/docs.routes.js';
import { requestContext } from './http/request-context.js';
import { authRoutes } from './routes/auth.routes.js';
import { healthRoutes } from './routes/health.routes.js';
import { tenantsRoutes } from './routes/tenants.routes.js';
import { warehousesRoutes } from './routes/warehouses.routes.js';
import { usersRoutes } from './routes/users.routes.js';

export interface GatewayDeps {
  runtime: Runtime;
  services: Services;
  /** Resources the app opens (the ingest queue and its events); the caller drains and closes them on shutdown. */
  lifecycle: AppLifecycle;
}

export function createApp({ runtime, services, lifecycle }: GatewayDeps): Express {
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
  app.use('/api/v1/integration/v1', integrationRouter(runtime, services, lifecycle));
  app.use('/docs', docsRoutes(services));

  const api = express.Router();
  api.use(express.json({ limit: BODY_LIMIT }));
  api.use('/auth', authRoutes(services));
  api.use('/tenants', tenantsRoutes(services, tokens));
  api.use('/warehouses', warehousesRoutes(services, tokens));
  api.use('/users', usersRoutes(services, tokens));
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
