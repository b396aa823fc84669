import express, { Router } from 'express';
import type { Runtime, Services } from '@wms/shared';
import { useErrorFormat } from '../http/errors.js';
import { BODY_LIMIT } from '../http/body.js';

/**
 * `/api/v1/integration/v1`: the guard runs first (its 401/403/429 use the plain error shape), then
 * everything after it answers errors in the integration envelope. The body is parsed only after the
 * guard, so an unauthenticated caller learns nothing about its payload.
 */
export function integrationRouter(_runtime: Runtime, services: Services): Router {
  const router = Router();
  router.use((_req, res, next) => {
    useErrorFormat(res, 'envelope');
    next();
  });
  router.use(express.json({ limit: BODY_LIMIT }));
  return router;
}
