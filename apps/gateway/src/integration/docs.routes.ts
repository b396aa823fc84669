import { Router, type RequestHandler } from 'express';
import { buildOpenApiDocument, webhooksOpenApi, type Services } from '@wms/shared';
import { renderDocsPage, type OpenApiDocument } from './docs-page.js';
import { documentOpenApi } from './documents.openapi.js';

export const OPENAPI_PATH = '/api/v1/integration/v1/openapi.json';

/** The document is built once per process from the same joi schemas that validate requests. */
function openApiDocument(services: Pick<Services, 'ingest'>) {
  return buildOpenApiDocument(services.ingest.list(), {
    version: '1',
    serverUrl: '/api/v1/integration/v1',
    ...documentOpenApi(),
    webhooks: webhooksOpenApi(),
  });
}

/**
 * GET /openapi.json under the integration base: public, no API key (it describes only request and
 * answer shapes, nothing of any tenant), so client generators and the docs page can read it.
 */
export function openApiRoute(services: Pick<Services, 'ingest'>): RequestHandler {
  const document = openApiDocument(services);
  return (_req, res) => {
    res.json(document);
  };
}

/** GET /docs: the same document as a static HTML page (no scripts, nothing from a CDN). */
export function docsRoutes(services: Pick<Services, 'ingest'>): Router {
  const router = Router();
  // The builder answers a plain record; the page reads the OpenAPI fields it knows and skips the rest.
  const html = renderDocsPage(openApiDocument(services) as unknown as OpenApiDocument, OPENAPI_PATH);
  router.get('/', (_req, res) => {
    res.type('html').send(html);
  });
  return router;
}
