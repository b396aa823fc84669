import { createRequire } from 'node:module';
import type Joi from 'joi';
import type { parse as JoiToJson } from 'joi-to-json';
import { ANSWER_SCHEMAS, INTEGRATION_ERROR_CODES } from './answer.schemas.js';

// joi-to-json is CommonJS with `module.exports = parse`, which its type declarations do not describe.
const parse: typeof JoiToJson = createRequire(import.meta.url)('joi-to-json');

/** A JSON Schema (2020-12, as OpenAPI 3.1 uses it). */
export type JsonSchema = Record<string, unknown>;

/**
 * The JSON Schema of a joi schema, by joi-to-json from `schema.describe()`: what the validator enforces
 * (keys, required, limits, formats, allowed values, null, defaults, descriptions). `Joi.link('#Name')`
 * becomes a reference to the component `Name`.
 */
export function joiToJsonSchema(schema: Joi.Schema): JsonSchema {
  return withoutOpenDefaults(parse(schema, 'open-api-3.1')) as JsonSchema;
}

/**
 * Drops what an open object says that JSON Schema assumes anyway (`additionalProperties: true`, no
 * `properties`), so renderers do not invent example fields for it.
 */
function withoutOpenDefaults(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutOpenDefaults);
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (key === 'additionalProperties' && child === true) continue;
    if (key === 'properties' && child && typeof child === 'object' && !Object.keys(child).length) continue;
    out[key] = withoutOpenDefaults(child);
  }
  return out;
}

/** A header or query parameter no request schema of the route covers. */
export interface RouteParameter {
  name: string;
  in: 'query' | 'header';
  description?: string;
  schema: JsonSchema;
}

/** One answer of a route: its meaning, and the schema of its body (a component's name, or joi). */
export interface RouteAnswer {
  description: string;
  /** A component of the document (`'BulkEnvelope'`), or a joi schema of the body; none: no body described. */
  body?: string | Joi.Schema;
  /** A body that is not JSON (a file), by media type. */
  media?: Record<string, JsonSchema>;
}

/**
 * One route of the integration API: what the router mounts (method, path, scope) and validates with
 * (`body`, `query`), and what the document says of it.
 */
export interface IntegrationRoute {
  method: 'get' | 'post' | 'delete';
  /** Under the integration base, in the router's form (`/orders/:orderNo`). */
  path: string;
  scope: 'read' | 'write';
  summary: string;
  description?: string;
  tag: 'master data' | 'documents' | 'stock' | 'events' | 'jobs' | 'imports';
  /** The body schema the route validates with; `bodyName` names it among the components. */
  body?: Joi.ObjectSchema;
  bodyName?: string;
  /** False when the route takes no body or an empty one (a cancel). */
  bodyRequired?: boolean;
  /** What the document shows of the body when it says more than the route checks (a bulk body's entries). */
  documentedBody?: Joi.ObjectSchema;
  /** A request body that is not JSON (a file), by media type: streamed, never validated whole. */
  requestMedia?: Record<string, JsonSchema>;
  /** The query schema the route validates with: each key is a query parameter. */
  query?: Joi.ObjectSchema;
  parameters?: RouteParameter[];
  responses: Record<number, RouteAnswer>;
}

const SECURITY = [{ ApiKey: [] }, { ApiKeyAuthorization: [] }];
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** `/orders/:orderNo` → `/orders/{orderNo}`, the OpenAPI form. */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z]+)/g, '{$1}');
}

function queryParameters(schema: Joi.ObjectSchema) {
  const json = joiToJsonSchema(schema) as { properties: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(json.properties).map(([name, property]) => {
    const { description, ...rest } = property;
    return {
      name,
      in: 'query',
      required: json.required?.includes(name) ?? false,
      ...(description ? { description } : {}),
      schema: rest,
    };
  });
}

function answer({ description, body, media }: RouteAnswer) {
  const files = Object.fromEntries(Object.entries(media ?? {}).map(([type, schema]) => [type, { schema }]));
  if (!body) return media ? { description, content: files } : { description };
  const schema = typeof body === 'string' ? ref(body) : joiToJsonSchema(body);
  return { description, content: { 'application/json': { schema }, ...files } };
}

function operation(route: IntegrationRoute, components: Record<string, JsonSchema>) {
  const pathParameters = [...route.path.matchAll(/:([A-Za-z]+)/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  const shownBody = route.documentedBody ?? route.body;
  if (shownBody && route.bodyName) components[route.bodyName] = joiToJsonSchema(shownBody);
  return {
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    tags: [route.tag],
    security: SECURITY,
    'x-scope': route.scope,
    parameters: [
      ...pathParameters,
      // Every POST of the integration API is idempotent with an Idempotency-Key.
      ...(route.method === 'post' ? [{ $ref: '#/components/parameters/IdempotencyKey' }] : []),
      ...(route.query ? queryParameters(route.query) : []),
      ...(route.parameters ?? []),
    ],
    ...(shownBody && route.bodyName
      ? {
          requestBody: {
            required: route.bodyRequired ?? true,
            content: { 'application/json': { schema: ref(route.bodyName) } },
          },
        }
      : route.requestMedia
        ? {
            requestBody: {
              required: true,
              content: Object.fromEntries(
                Object.entries(route.requestMedia).map(([type, schema]) => [type, { schema }]),
              ),
            },
          }
        : {}),
    responses: Object.fromEntries(
      Object.entries(route.responses).map(([status, response]) => [status, answer(response)]),
    ),
  };
}

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
  const components: Record<string, JsonSchema> = {};
  for (const [name, schema] of Object.entries(ANSWER_SCHEMAS)) components[name] = joiToJsonSchema(schema);
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = openApiPath(route.path);
    // A path may carry both an entity's POST and a list's GET.
    paths[path] = { ...paths[path], [route.method]: operation(route, components) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'WMS push integration API',
      version: options.version,
      description:
        'API-key authenticated push API. Write endpoints need scope write, GET endpoints scope read. Every POST ' +
        'accepts Idempotency-Key: the same key and body within IDEMPOTENCY_TTL_SECONDS replays the first answer ' +
        'with Idempotent-Replay: true.\n\n' +
        'Errors answer `{ status: "error", code, message, details?, requestId }`; the guard (401, 429) answers ' +
        '`{ statusCode, message, error, requestId }`.\n\n' +
        errorCodeTable(),
    },
    servers: [{ url: options.serverUrl }],
    tags: [
      { name: 'master data', description: 'items, partners and locations: created or updated by natural key' },
      { name: 'documents', description: 'ASNs, GRNs and sales orders: created, cancelled, inquired and listed' },
      { name: 'stock', description: 'stock per warehouse, location and lot' },
      { name: 'events', description: 'the reconciliation feed of the events webhooks deliver' },
      { name: 'jobs', description: 'bulk jobs the ingest worker runs' },
      { name: 'imports', description: 'file imports (NDJSON or CSV), written by the ingest workers chunk by chunk' },
    ],
    paths,
    ...(options.webhooks ? { webhooks: options.webhooks } : {}),
    components: {
      schemas: components,
      parameters: {
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          schema: { type: 'string', minLength: 1, maxLength: 255 },
        },
      },
      securitySchemes: {
        ApiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        ApiKeyAuthorization: {
          type: 'apiKey',
          in: 'header',
          name: 'Authorization',
          description: 'Authorization: ApiKey <key>',
        },
      },
    },
    'x-error-codes': INTEGRATION_ERROR_CODES,
  };
}
