import { type Router, type RequestHandler } from 'express';
import { API_VERSIONS, sentSchemaForVersion, unknownVersion, type VersionPolicy } from '@wms/platform';
import { asyncApiDocument, eventTypeCatalogue } from '@wms/webhooks';
import { mount } from './scope.js';
import { EVENT_TYPE_ROUTES } from './event-types.route-table.js';
import { caseSensitiveRouter, requestIdOf } from '../http/index.js';
import { versionOf } from './api-version.middleware.js';

/** GET /event-types: the catalogue of event types with their schemas, in the request's dated version. */
export function eventTypeRoutes(): Router {
  const router = caseSensitiveRouter();
  const catalogue = eventTypeCatalogue();
  const byVersion = new Map(API_VERSIONS.map((version) => [version, sentSchemaForVersion(catalogue, version)]));
  mount(router, EVENT_TYPE_ROUTES.eventTypes, (req, res) => {
    res.json({ status: 'success', data: byVersion.get(versionOf(req)), requestId: requestIdOf(req) });
  });
  return router;
}

/**
 * GET /asyncapi.json under the integration base: public as the OpenAPI document is (it describes message
 * shapes only). `?version=` chooses the dated version (default the deployment's default version; an unknown one is 400).
 */
export function asyncApiRoute(policy: VersionPolicy): RequestHandler {
  const documents = new Map(API_VERSIONS.map((version) => [version, asyncApiDocument(version)]));
  return (req, res) => {
    const asked = req.query.version;
    const version = typeof asked === 'string' && asked !== '' ? asked : policy.defaultVersion;
    const document = documents.get(version);
    if (!document) throw unknownVersion(version, 'version');
    res.json(document);
  };
}
