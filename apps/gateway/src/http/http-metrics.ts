import type { Request, RequestHandler, Response } from 'express';
import { httpRequestDuration, httpRequestsInFlight } from '@wms/platform';
import { apiKeyRefusals } from '@wms/api-keys';

/** The API-key guard's error codes and the refusal reason each one counts as. */
const REFUSAL_REASONS: Record<string, string> = {
  MISSING_API_KEY: 'missing',
  INVALID_API_KEY: 'invalid',
  TOO_MANY_INVALID_KEYS: 'throttled',
  MISSING_SCOPE: 'scope',
  IP_NOT_ALLOWED: 'ip',
  ORIGIN_NOT_ALLOWED: 'origin',
  RATE_LIMITED: 'rate_limited',
};

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** Where a request no route matched was headed: a fixed set, never the raw path. */
const MOUNTS = ['/api/v1/integration/v1', '/api/v1', '/admin/queues', '/admin', '/health', '/docs', '/metrics'];

type Child = ReturnType<typeof httpRequestDuration.labels>;

/**
 * Request duration by method, route template and status code, and requests in flight. Cheap on the
 * request path: no I/O, one listener, and the labelled histogram child is looked up in a map.
 * The error handler leaves the error's code in `res.locals.errorCode`; a guard refusal is counted by it.
 */
export function httpMetrics(): RequestHandler {
  const children = new Map<string, Child>();
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    httpRequestsInFlight.inc();
    res.once('close', () => {
      httpRequestsInFlight.dec();
      const method = METHODS.has(req.method) ? req.method : 'OTHER';
      const route = routeTemplate(req);
      const key = `${method} ${route} ${res.statusCode}`;
      let child = children.get(key);
      if (!child) {
        child = httpRequestDuration.labels(method, route, String(res.statusCode));
        children.set(key, child);
      }
      child.observe(Number(process.hrtime.bigint() - started) / 1e9);
      countRefusal(res);
    });
    next();
  };
}

function countRefusal(res: Response): void {
  const code = res.locals.errorCode as string | undefined;
  const reason = code ? REFUSAL_REASONS[code] : undefined;
  if (reason) apiKeyRefusals.labels(reason).inc();
}

/** A route's own pattern without a trailing slash, and how many path segments it spans; kept per route. */
const ownPatterns = new WeakMap<object, { pattern: string; segments: number }>();

/**
 * The template of the route that answered (`/api/v1/integration/v1/orders/:orderNo`). Routers are mounted
 * on fixed paths, so the mount is the request path less as many trailing segments as the route's own
 * pattern spans. A request no route matched (a 404, or a guard refusal before the routes) is labelled by
 * its mount. Runs once per request: string scans only, no regular expression on the path.
 */
export function routeTemplate(req: Request): string {
  const url = req.originalUrl;
  const query = url.indexOf('?');
  let end = query === -1 ? url.length : query;
  while (end > 1 && url.charCodeAt(end - 1) === 47 /* / */) end -= 1;
  const route = req.route as { path?: unknown } | undefined;
  if (route && typeof route.path === 'string') {
    let own = ownPatterns.get(route);
    if (!own) {
      const pattern = route.path.replace(/\/+$/, '');
      own = { pattern, segments: pattern.split('/').length - 1 };
      ownPatterns.set(route, own);
    }
    let mountEnd = end;
    for (let i = 0; i < own.segments && mountEnd > 0; i += 1) mountEnd = url.lastIndexOf('/', mountEnd - 1);
    // Lower case: routing ignores case, and a label must not vary with how a client spells the mount.
    return `${url.slice(0, Math.max(0, mountEnd)).toLowerCase()}${own.pattern}` || '/';
  }
  const path = url.slice(0, end).toLowerCase();
  const mount = MOUNTS.find((prefix) => path === prefix || path.startsWith(`${prefix}/`));
  return mount ? `${mount}/*` : 'unmatched';
}
