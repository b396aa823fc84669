import { type Router, type RequestHandler } from 'express';
import type { AppLifecycle, Runtime } from '@wms/platform';
import type { Services } from '../services.js';
import { caseSensitiveRouter, inOrder, useErrorFormat } from '../http/index.js';
import { entityRoutes } from './entities.routes.js';
import { documentRoutes } from './documents.routes.js';
import { catalogueRoutes } from './catalogue.routes.js';
import { eventFeedRoutes } from './events.routes.js';
import { byApiKey, idempotency } from './idempotency.middleware.js';
import { IngestJobs } from '@wms/ingest';
import { jobsRoutes } from './jobs.routes.js';
import { createImportsService, importsRoutes } from './imports.routes.js';
import { simulationRoutes } from './simulations.routes.js';
import { apiVersion } from './api-version.middleware.js';
import { createSnapshotsService, snapshotRoutes } from './snapshots.routes.js';
import { eventTypeRoutes } from './event-types.routes.js';
import { ediRoutes } from './edi.routes.js';

/**
 * `/api/v1/integration/v1` (mounted in app.ts, after its public OpenAPI document): everything passes the
 * API-key guard (its 401/403/429 use the plain error shape) and answers errors in the integration
 * envelope, in the request's dated version (api-version.middleware.ts). Each route checks its scope, then parses its body (1 MB), so a caller without the right key
 * learns nothing about its payload.
 */
export function integrationRouter(
  runtime: Runtime,
  services: Services,
  lifecycle: AppLifecycle,
  guard: RequestHandler,
): Router {
  const jobs = new IngestJobs(runtime, lifecycle, services.events);
  const router = caseSensitiveRouter();
  router.use(inOrder(guard, envelopeErrors, apiVersion(runtime.config.apiVersions)));
  const idempotent = idempotency(services, runtime.logger, byApiKey);
  // The inquiries first, on this router itself: they are the most frequent calls, and no entity route
  // shares their paths.
  documentRoutes(router, runtime, services, idempotent);
  catalogueRoutes(router, services);
  router.use(entityRoutes(runtime, services, jobs, idempotent));
  router.use(eventFeedRoutes(services));
  router.use(eventTypeRoutes());
  const imports = createImportsService(runtime, services, lifecycle);
  router.use(importsRoutes(services, imports, idempotent));
  const snapshots = createSnapshotsService(runtime, lifecycle);
  router.use(snapshotRoutes(services, snapshots, idempotent));
  router.use(jobsRoutes(jobs, imports, snapshots));
  router.use(simulationRoutes(runtime, services, idempotent));
  router.use(ediRoutes(runtime, lifecycle, idempotent));
  return router;
}

const envelopeErrors: RequestHandler = (_req, res, next) => {
  useErrorFormat(res, 'envelope');
  next();
};
