import type { Request, RequestHandler } from 'express';
import {
  DEFAULT_API_VERSION,
  VERSION_HEADER,
  renderForVersion,
  requestedVersion,
  versionHeaders,
  type ApiVersion,
  type VersionPolicy,
} from '@wms/platform';
import { answerPipeline, apiVersionOf, keyOf, setApiVersion } from '../http/index.js';

const headerName = VERSION_HEADER.toLowerCase();

/**
 * After the API-key guard: the request's dated version (the `Wms-Version` header overrides the key's pinned
 * version for this request; an unknown one is 400 naming the known ones; neither: the deployment's default),
 * announced on the answer with the deprecation headers of a version the deployment deprecated. Every answer
 * sent through res.json is rendered in that version (answer-pipeline.ts); the inquiries PostgreSQL builds as JSON text write their
 * quantities in it themselves.
 */
export function apiVersion(policy: VersionPolicy): RequestHandler {
  return (req, res, next) => {
    const version = requestedVersion(req.headers[headerName], keyOf(req)?.apiVersion, policy.defaultVersion);
    setApiVersion(req, version);
    res.set(versionHeaders(version, policy));
    // Stage 2 of the answer pipeline.
    answerPipeline(res).render = (body) => renderForVersion(body, version);
    next();
  };
}

/** The version of a request that passed the middleware (the seed's for one that did not). */
export const versionOf = (req: Request): ApiVersion => apiVersionOf(req) ?? DEFAULT_API_VERSION;
