import { type Router } from 'express';
import { checkDependencies, type Runtime } from '@wms/platform';
import { caseSensitiveRouter } from '../http/router.js';

export function healthRoutes(runtime: Pick<Runtime, 'db' | 'redis'>): Router {
  const router = caseSensitiveRouter();
  router.get('/live', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/ready', async (req, res) => {
    const dependencies = await checkDependencies(runtime.db.sequelize, runtime.redis);
    const ready = dependencies.postgres === 'up' && dependencies.redis === 'up';
    res
      .status(ready ? 200 : 503)
      .json({ status: ready ? 'ready' : 'unavailable', dependencies, requestId: req.requestId });
  });
  return router;
}
