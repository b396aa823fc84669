import { type Router } from 'express';
import type { TokenService } from '@wms/identity';
import { API_VERSION_LIST, deprecationOf, type VersionPolicy } from '@wms/platform';
import { requireJwt } from '../http/jwt-guard.js';
import { caseSensitiveRouter } from '../http/router.js';

/** One dated version as the portal shows it: what it changed, and the deployment's deprecation of it. */
export interface ApiVersionAnswer {
  version: string;
  changes: { name: string; summary: string; description: string }[];
  deprecatedAt: string | null;
  sunsetAt: string | null;
}

/**
 * GET /api/v1/api-versions: the dated versions of the integration API, newest first, and the one a key or
 * subscription created without `apiVersion` gets on this deployment, so the portal's forms preselect it.
 */
export function apiVersionsRoutes(policy: VersionPolicy, tokens: TokenService): Router {
  const answer = {
    defaultVersion: policy.defaultVersion,
    versions: [...API_VERSION_LIST].reverse().map(({ version, changes }): ApiVersionAnswer => ({
      version,
      changes: changes.map(({ name, summary, description }) => ({ name, summary, description })),
      deprecatedAt: deprecationOf(policy, version)?.deprecatedAt ?? null,
      sunsetAt: deprecationOf(policy, version)?.sunsetAt ?? null,
    })),
  };
  const router = caseSensitiveRouter();
  router.use(requireJwt(tokens));
  router.get('/', (_req, res) => {
    res.json(answer);
  });
  return router;
}
