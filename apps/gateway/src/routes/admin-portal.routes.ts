import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type Router, type RequestHandler } from 'express';
import { caseSensitiveRouter, strictPageCsp } from '../http/index.js';

export const ADMIN_PORTAL_PATH = '/admin';

/** Where `npm run build` writes the portal (apps/admin-portal/dist), seen from this file in apps/gateway/dist. */
export const DEFAULT_PORTAL_DIR = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  '..',
  'admin-portal',
  'dist',
);

/**
 * Paths under /admin that belong to others and must never get the portal's page: the queue console
 * mounted at /admin/queues answers (or 404s) for itself.
 */
const NOT_THE_PORTAL = /^\/queues(\/|$)/;

/**
 * GET /admin/*: the built single-page app. Hashed assets are cached for a year; every other path that is
 * not a file answers index.html (the client router takes over), never cached so a new build shows at once.
 * Without a build, /admin answers 503 saying how to build it.
 */
export function adminPortalRoutes(portalDir = DEFAULT_PORTAL_DIR): Router {
  const router = caseSensitiveRouter();
  const skipForeign: RequestHandler = (req, _res, next) => (NOT_THE_PORTAL.test(req.path) ? next('router') : next());
  router.use(skipForeign, strictPageCsp);

  const indexFile = join(portalDir, 'index.html');
  if (!existsSync(indexFile)) {
    router.use((_req, res) => {
      res.status(503).type('text').send('The admin portal is not built: run `npm run build`.');
    });
    return router;
  }
  const indexHtml = readFileSync(indexFile);
  router.use('/assets', express.static(join(portalDir, 'assets'), { immutable: true, maxAge: '365d', index: false }));
  router.use(express.static(portalDir, { index: false, maxAge: 0 }));
  router.get('/{*path}', (req, res, next) => {
    // A missing file (a path with an extension) is a 404, not the page.
    if (/\.[a-z0-9]+$/i.test(req.path)) return next();
    res.set('Cache-Control', 'no-cache').type('html').send(indexHtml);
  });
  return router;
}
