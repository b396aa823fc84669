import { type Router } from 'express';
import { checkReadiness, type Runtime } from '@wms/platform';
import { caseSensitiveRouter, requestIdOf } from '../http/index.js';

export function healthRoutes(runtime: Pick<Runtime, 'db' | 'redis' | 'keySpace'>): Router {
  const router = caseSensitiveRouter();
  router.get('/live', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/ready', async (req, res) => {
    const { ready, ...readiness } = await checkReadiness(runtime.db.sequelize, runtime.redis, runtime.keySpace);
    res
      .status(ready ? 200 : 503)
      .json({ status: ready ? 'ready' : 'unavailable', ...readiness, requestId: requestIdOf(req) });
  });
  return router;
}
