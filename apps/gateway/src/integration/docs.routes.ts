import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import express, { type Router, type RequestHandler } from 'express';
import type { Services } from '../services.js';
import {
  API_VERSIONS,
  NEWEST_API_VERSION,
  openApiDocumentForVersion,
  unknownVersion,
  type VersionPolicy,
} from '@wms/platform';
import { INGEST_ENTITIES, buildOpenApiDocument, type IngestEntity, type IngestEntityDeclaration } from '@wms/ingest';
import { ASYNCAPI_PATH, webhooksOpenApi } from '@wms/webhooks';
import { ADMIN_OPENAPI_PATH, caseSensitiveRouter, strictPageCsp } from '../http/index.js';
import { integrationRoutes } from './route-table.js';
import { changelogPage } from './changelog.page.js';

export const OPENAPI_PATH = '/api/v1/integration/v1/openapi.json';

/**
 * The document is built once per process from the route table, whose schemas the routes validate with; the
 * entities' part from their declarations (a running gateway passes its registry's handlers).
 */
export function openApiDocumentOf(
  entities: ReadonlyArray<IngestEntityDeclaration<unknown, IngestEntity>> = INGEST_ENTITIES,
): Record<string, unknown> {
  return buildOpenApiDocument(integrationRoutes(entities), {
    version: '1',
    serverUrl: '/api/v1/integration/v1',
    webhooks: webhooksOpenApi(),
  });
}

/**
 * The same document without a running service, for the typed client's generator and its drift check: made
 * from the entities' declarations, which hold everything the document reads. The client's types follow the
 * newest version (and the client sends it as `Wms-Version`).
 */
export function integrationOpenApiDocument(): Record<string, unknown> {
  return openApiDocumentForVersion(openApiDocumentOf(), NEWEST_API_VERSION);
}

/**
 * GET /openapi.json under the integration base: public, no API key (it describes only request and
 * answer shapes, nothing of any tenant), so client generators and the docs page can read it. `?version=`
 * chooses the dated version it documents (default the deployment's, the one a new key gets; an unknown one is
 * 400).
 */
export function openApiRoute(services: Pick<Services, 'ingest'>, policy: VersionPolicy): RequestHandler {
  const built = openApiDocumentOf(services.ingest.list());
  const documents = new Map(API_VERSIONS.map((version) => [version, openApiDocumentForVersion(built, version)]));
  return (req, res) => {
    const asked = req.query.version;
    const version = typeof asked === 'string' && asked !== '' ? asked : policy.defaultVersion;
    const document = documents.get(version);
    if (!document) throw unknownVersion(version, 'version');
    res.json(document);
  };
}

/** Swagger UI's files as its npm package ships them, served by the gateway itself (no CDN). */
const SWAGGER_UI_DIR = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const SWAGGER_UI_FILES = ['swagger-ui.css', 'swagger-ui-bundle.js', 'favicon-32x32.png', 'favicon-16x16.png'];

/** The documents the page shows, the integration API's first. */
const DOCUMENTS = [
  { url: OPENAPI_PATH, name: 'Integration API (API key)' },
  { url: ADMIN_OPENAPI_PATH, name: 'Admin API (JWT)' },
];

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>WMS push integration API</title>
    <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
    <link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png" sizes="32x32">
  </head>
  <body>
    <nav class="wrapper">
      <label for="api-document">Document</label>
      <select id="api-document">${DOCUMENTS.map(({ url, name }) => `<option value="${url}">${name}</option>`).join('')}</select>
      <a href="${ASYNCAPI_PATH}">Events (AsyncAPI 3.0)</a>
    </nav>
    <main id="docs"></main>
    <script src="/docs/assets/swagger-ui-bundle.js"></script>
    <script src="/docs/start.js"></script>
  </body>
</html>
`;

// Reads the document from the gateway; no validator badge (it would call a public validator service). The
// select above it switches between the documents (Swagger UI's own switcher needs its standalone preset,
// which sets inline styles the page's CSP refuses).
const START = `window.ui = SwaggerUIBundle({
  url: ${JSON.stringify(OPENAPI_PATH)},
  dom_id: '#docs',
  deepLinking: true,
  validatorUrl: null,
  defaultModelsExpandDepth: 0,
  docExpansion: 'list',
  tryItOutEnabled: false,
});
document.getElementById('api-document').addEventListener('change', (event) => {
  window.ui.specActions.updateUrl(event.target.value);
  window.ui.specActions.download(event.target.value);
});
`;

/** GET /docs: the OpenAPI documents (integration and admin) rendered by Swagger UI, served from its npm package. */
export function docsRoutes(policy: VersionPolicy): Router {
  const router = caseSensitiveRouter();
  const changelog = changelogPage(policy);
  // The gateway's strict page policy: Swagger UI needs no inline script or style, nor anything from elsewhere.
  router.use(strictPageCsp);
  router.get('/', (_req, res) => {
    res.type('html').send(PAGE);
  });
  router.get('/changelog', (_req, res) => {
    res.type('html').send(changelog);
  });
  router.get('/start.js', (_req, res) => {
    res.type('application/javascript').send(START);
  });
  const assets = express.static(SWAGGER_UI_DIR, { index: false, maxAge: '1h', fallthrough: false });
  router.use('/assets', (req, res, next) => {
    if (!SWAGGER_UI_FILES.includes(req.path.slice(1))) return next();
    assets(req, res, next);
  });
  return router;
}
