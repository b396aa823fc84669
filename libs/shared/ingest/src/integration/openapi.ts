import { buildOpenApi, IDEMPOTENCY_KEY_PARAMETER, Joi, type DocumentedRoute, type RouteAnswer } from '@wms/platform';
import { ANSWER_SCHEMAS, INTEGRATION_ERROR_CODES } from './answer.schemas.js';

/**
 * One route of the integration API: what the router mounts (method, path, scope) and validates with
 * (`body`, `query`), and what the document says of it.
 */
export interface IntegrationRoute extends DocumentedRoute {
  method: 'get' | 'post' | 'delete';
  scope: 'read' | 'write';
  tag: 'master data' | 'documents' | 'stock' | 'events' | 'jobs' | 'imports' | 'sandbox' | 'edi';
}

const SECURITY: Array<Record<string, string[]>> = [{ ApiKey: [] }, { ApiKeyAuthorization: [] }];
/** What the API-key guard answers on every route before the route runs, in its own shape (GuardError). */
const GUARD_REFUSALS: Record<number, RouteAnswer> = {
  401: { description: 'MISSING_API_KEY, INVALID_API_KEY or MISSING_SCOPE (the guard shape)', body: 'GuardError' },
  403: {
    description: "IP_NOT_ALLOWED or ORIGIN_NOT_ALLOWED: the key's IP whitelist or allowedOrigins",
    body: 'GuardError',
  },
  429: { description: 'RATE_LIMITED or TOO_MANY_INVALID_KEYS (Retry-After)', body: 'GuardError' },
};

/**
 * The route's answers with the guard's: a status the route answers itself too (403 TENANT_MISMATCH, 429
 * TOO_MANY_IMPORTS) is either shape.
 */
function withGuardRefusals(responses: Record<number, RouteAnswer>): Record<number, RouteAnswer> {
  const merged: Record<number, RouteAnswer> = { ...GUARD_REFUSALS, ...responses };
  for (const [status, guard] of Object.entries(GUARD_REFUSALS)) {
    const own = responses[Number(status)];
    if (!own?.body || own.body === guard.body) continue;
    const body = typeof own.body === 'string' ? Joi.link(`#${own.body}`) : own.body;
    merged[Number(status)] = {
      ...own,
      description: `${own.description}; or the guard's ${guard.description}`,
      body: Joi.alternatives(body, Joi.link('#GuardError')),
    };
  }
  return merged;
}

// Every POST of the integration API is idempotent with an Idempotency-Key.
const IDEMPOTENCY_KEY = [{ $ref: '#/components/parameters/IdempotencyKey' }];

/** The error codes as a Markdown table, for the document's description. */
function errorCodeTable(): string {
  const rows = INTEGRATION_ERROR_CODES.map(({ status, code, meaning }) => `| ${status} | \`${code}\` | ${meaning} |`);
  return ['| status | code | meaning |', '| --- | --- | --- |', ...rows].join('\n');
}

/**
 * The integration API's OpenAPI 3.1 document, generated from its route table: every route's request
 * schemas are the joi schemas it validates with, converted by joi-to-json.
 */
export function buildOpenApiDocument(
  routes: IntegrationRoute[],
  options: {
    version: string;
    serverUrl: string;
    /** OpenAPI 3.1's top-level `webhooks`: what the service POSTs to subscribers. */
    webhooks?: Record<string, unknown>;
  },
): Record<string, unknown> {
  return buildOpenApi({
    info: {
      title: 'WMS push integration API',
      version: options.version,
      description:
        'API-key authenticated push API. Write endpoints need scope write, GET endpoints scope read. Every POST ' +
        'accepts Idempotency-Key: the same key and the same request within IDEMPOTENCY_TTL_SECONDS replays the ' +
        'first answer with Idempotent-Replay: true. The same request is the same method, path, query parameters ' +
        'in any order and JSON body in its RFC 8785 canonical form (keys in any order); another request with the ' +
        'key is 409 IDEMPOTENCY_KEY_MISMATCH, whose details name the part that differs.\n\n' +
        'Errors answer `{ status: "error", code, message, details?, requestId }`; the guard (401, 403, 429) answers ' +
        '`{ statusCode, message, error, code, requestId }` (429 adds `retryAfter`).\n\n' +
        errorCodeTable(),
    },
    serverUrl: options.serverUrl,
    tags: [
      { name: 'master data', description: 'items, partners and locations: created or updated by natural key' },
      { name: 'documents', description: 'ASNs, GRNs and sales orders: created, cancelled, inquired and listed' },
      { name: 'stock', description: 'stock per warehouse, location and lot' },
      { name: 'events', description: 'the reconciliation feed of the events webhooks deliver' },
      { name: 'jobs', description: 'bulk jobs the ingest worker runs' },
      { name: 'imports', description: 'file imports (NDJSON or CSV), written by the ingest workers chunk by chunk' },
      { name: 'sandbox', description: 'simulations of warehouse work, for the keys of sandbox tenants' },
      {
        name: 'edi',
        description: 'ASC X12 interchanges of the trading partner a key is bound to, read by the ingest workers',
      },
    ],
    routes: routes.map((route) => ({ ...route, responses: withGuardRefusals(route.responses) })),
    extrasOf: (route) => ({
      security: SECURITY,
      extensions: { 'x-scope': route.scope },
      parameters: route.method === 'post' ? IDEMPOTENCY_KEY : [],
    }),
    answers: ANSWER_SCHEMAS,
    parameters: { IdempotencyKey: IDEMPOTENCY_KEY_PARAMETER },
    securitySchemes: {
      ApiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
      ApiKeyAuthorization: {
        type: 'apiKey',
        in: 'header',
        name: 'Authorization',
        description: 'Authorization: ApiKey <key>',
      },
    },
    ...(options.webhooks ? { webhooks: options.webhooks } : {}),
    extensions: { 'x-error-codes': INTEGRATION_ERROR_CODES },
  });
}
