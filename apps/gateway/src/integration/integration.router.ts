import './request.types.js';
import { Router } from 'express';
import type { AppLifecycle, Runtime, Services } from '@wms/shared';
import { useErrorFormat } from '../http/errors.js';
import { entityRoutes } from './entities.routes.js';
import { documentRoutes } from './documents.routes.js';
import { eventFeedRoutes } from './events.routes.js';
import { idempotency } from './idempotency.middleware.js';
import { IngestJobs } from './ingest-jobs.js';
import { jobsRoutes } from './jobs.routes.js';

/**
 * `/api/v1/integration/v1` behind the API-key guard (mounted in app.ts; its 401/403/429 use the plain
 * error shape): everything here answers errors in the integration envelope. Each route
 * checks its scope, then parses its body (1 MB), so a caller without the right key learns nothing
 * about its payload.
 */
export function integrationRouter(runtime: Runtime, services: Services, lifecycle: AppLifecycle): Router {
  const jobs = new IngestJobs(runtime, lifecycle);
  const router = Router();
  router.use((_req, res, next) => {
    useErrorFormat(res, 'envelope');
    next();
  });
  const idempotent = idempotency(services, runtime.logger);
  // The inquiries first: they are the most frequent calls, and no entity route shares their paths.
  router.use(documentRoutes(runtime, services, idempotent));
  router.use(entityRoutes(runtime, services, jobs, idempotent));
  router.use(eventFeedRoutes(services));
  router.use(jobsRoutes(jobs));
  return router;
}
