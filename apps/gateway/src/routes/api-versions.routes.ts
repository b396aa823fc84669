import { type Router } from 'express';
import type { TokenService } from '@wms/identity';
import { API_VERSION_LIST, deprecationOf, type VersionPolicy } from '@wms/platform';
import { GUARDED, adminRouter, ok, type AdminEndpoint } from './admin-route.js';

/** One dated version as the portal shows it: what it changed, and the deployment's deprecation of it. */
export interface ApiVersionAnswer {
  version: string;
  changes: { name: string; summary: string; description: string }[];
  deprecatedAt: string | null;
  sunsetAt: string | null;
}

/** The versions' answer on a deployment: fixed for its life. */
function versionsAnswer(policy: VersionPolicy) {
  return {
    defaultVersion: policy.defaultVersion,
    versions: [...API_VERSION_LIST].reverse().map(({ version, changes }): ApiVersionAnswer => ({
      version,
      changes: changes.map(({ name, summary, description }) => ({ name, summary, description })),
      deprecatedAt: deprecationOf(policy, version)?.deprecatedAt ?? null,
      sunsetAt: deprecationOf(policy, version)?.sunsetAt ?? null,
    })),
  };
}

/**
 * GET /api/v1/api-versions, declared once: the dated versions of the integration API, newest first, and the
 * one a key or subscription created without `apiVersion` gets on this deployment, so the portal's forms
 * preselect it.
 */
export const API_VERSION_ROUTES: ReadonlyArray<AdminEndpoint<VersionPolicy>> = [
  {
    method: 'get',
    path: '/api-versions',
    tag: 'api-keys',
    access: 'signed-in',
    summary:
      "The integration API's dated versions, newest first, what each changed, and the one a new key or subscription gets here",
    responses: { 200: ok('the versions', 'ApiVersions'), ...GUARDED },
    handle: (policy) => {
      const answer = versionsAnswer(policy);
      return (_req, res) => {
        res.json(answer);
      };
    },
  },
];

/** The versions' router, made from its declaration (mounted on the admin base path itself). */
export function apiVersionsRoutes(policy: VersionPolicy, tokens: TokenService): Router {
  return adminRouter(API_VERSION_ROUTES, policy, tokens);
}
