import type { RequestHandler, Router } from 'express';
import type { ApiKeyScope } from '@wms/api-keys';
import type { IntegrationRoute } from '@wms/ingest';
import { parseJsonBody, requireScope, useErrorFormat, withKey, type KeyHandler } from '../http/index.js';

/**
 * The scope check is part of the guard, so its 401 keeps the guard's plain shape; after it, errors
 * answer in the integration envelope.
 */
export function scoped(scope: ApiKeyScope): RequestHandler {
  const check = requireScope(scope);
  return (req, res, next) => {
    useErrorFormat(res, 'plain');
    check(req, res, () => {
      useErrorFormat(res, 'envelope');
      next();
    });
  };
}

/** Parses a JSON body of at most 1 MB after the guard and scope check, keeping its bytes for the idempotency fingerprint. */
export const jsonBody: RequestHandler[] = parseJsonBody();

/**
 * Mounts a route of the route table: its method and path, its scope checked before anything else, then its
 * handlers, each receiving the request's API key typed.
 */
export function mount(
  router: Router,
  route: Pick<IntegrationRoute, 'method' | 'path' | 'scope'>,
  ...handlers: KeyHandler[]
): void {
  router[route.method](route.path, scoped(route.scope), ...handlers.map((handler) => withKey(handler)));
}
