import type Joi from 'joi';
import { joiToJsonSchema, type JsonSchema } from './json-schema.js';

/** A header or query parameter no request schema of the route covers. */
export interface RouteParameter {
  name: string;
  in: 'query' | 'header';
  description?: string;
  schema: JsonSchema;
}

/** One answer of a route: its meaning, the schema of its body (a component's name, or joi), its headers. */
export interface RouteAnswer {
  description: string;
  /** A component of the document (`'BulkEnvelope'`), or a joi schema of the body; none: no body described. */
  body?: string | Joi.Schema;
  /** Headers the answer carries (a paged list's `X-Next-Cursor`). */
  headers?: Record<string, { description: string; schema: JsonSchema }>;
  /** A body that is not JSON (a file), by media type. */
  media?: Record<string, JsonSchema>;
}

/**
 * One route as a document describes it: method and path (in the router's form), the request schemas the
 * route validates with (`body`, `query`), and its answers.
 */
export interface DocumentedRoute {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** Under the document's server URL, in the router's form (`/orders/:orderNo`). */
  path: string;
  summary: string;
  description?: string;
  tag: string;
  /** The body schema the route validates with; `bodyName` names it among the components. */
  body?: Joi.ObjectSchema;
  bodyName?: string;
  /** False when the route takes no body or an empty one (a cancel). */
  bodyRequired?: boolean;
  /** What the document shows of the body when it says more than the route checks (a bulk body's entries). */
  documentedBody?: Joi.Schema;
  /** A request body that is not JSON (a file), by media type: streamed, never validated whole. */
  requestMedia?: Record<string, JsonSchema>;
  /** The query schema the route validates with: each key is a query parameter. */
  query?: Joi.ObjectSchema;
  parameters?: RouteParameter[];
  responses: Record<number, RouteAnswer>;
}

/** What an API adds to each of its operations: who may call it, extensions, parameters of its own. */
export interface OperationExtras {
  security: Array<Record<string, string[]>>;
  /** `x-…` fields, placed after `security`. */
  extensions?: Record<string, unknown>;
  /** Placed after the path parameters (a shared header such as Idempotency-Key). */
  parameters?: unknown[];
}

/** One OpenAPI 3.1 document: its header, its routes, and the components every operation may name. */
export interface OpenApiSpec<R extends DocumentedRoute> {
  info: { title: string; version: string; description: string };
  serverUrl: string;
  tags: Array<{ name: string; description: string }>;
  routes: R[];
  extrasOf: (route: R) => OperationExtras;
  /** Shared answer schemas, by their component name. */
  answers: Record<string, Joi.Schema>;
  parameters: Record<string, unknown>;
  securitySchemes: Record<string, unknown>;
  /** OpenAPI 3.1's top-level `webhooks`. */
  webhooks?: Record<string, unknown>;
  /** Top-level `x-…` fields, placed last. */
  extensions?: Record<string, unknown>;
}

/** The `Idempotency-Key` header, as a component both APIs name (`#/components/parameters/IdempotencyKey`). */
export const IDEMPOTENCY_KEY_PARAMETER = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  schema: { type: 'string', minLength: 1, maxLength: 255 },
};

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

/** Content by media type, for bodies that are not JSON (files). */
function mediaContent(media: Record<string, JsonSchema>) {
  return Object.fromEntries(Object.entries(media).map(([type, schema]) => [type, { schema }]));
}

function answer({ description, body, headers, media }: RouteAnswer) {
  const described = headers ? { description, headers } : { description };
  const files = media ? mediaContent(media) : {};
  if (!body) return media ? { ...described, content: files } : described;
  const schema = typeof body === 'string' ? ref(body) : joiToJsonSchema(body);
  return { ...described, content: { 'application/json': { schema }, ...files } };
}

function operation(route: DocumentedRoute, extras: OperationExtras, components: Record<string, JsonSchema>) {
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
    security: extras.security,
    ...extras.extensions,
    parameters: [
      ...pathParameters,
      ...(extras.parameters ?? []),
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
        ? { requestBody: { required: true, content: mediaContent(route.requestMedia) } }
        : {}),
    responses: Object.fromEntries(
      Object.entries(route.responses).map(([status, response]) => [status, answer(response)]),
    ),
  };
}

/**
 * An OpenAPI 3.1 document generated from a route table: every route's request schemas are the joi schemas
 * it validates with, and every answer's schema a joi schema, converted by joi-to-json.
 */
export function buildOpenApi<R extends DocumentedRoute>(spec: OpenApiSpec<R>): Record<string, unknown> {
  const components: Record<string, JsonSchema> = {};
  for (const [name, schema] of Object.entries(spec.answers)) components[name] = joiToJsonSchema(schema);
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of spec.routes) {
    if (route.bodyName && route.bodyName in spec.answers)
      throw new Error(`The body ${route.bodyName} of ${route.method} ${route.path} is named like an answer`);
    const path = openApiPath(route.path);
    // A path may carry several methods (an entity's POST and a list's GET).
    paths[path] = { ...paths[path], [route.method]: operation(route, spec.extrasOf(route), components) };
  }
  return {
    openapi: '3.1.0',
    info: spec.info,
    servers: [{ url: spec.serverUrl }],
    tags: spec.tags,
    paths,
    ...(spec.webhooks ? { webhooks: spec.webhooks } : {}),
    components: {
      schemas: components,
      parameters: spec.parameters,
      securitySchemes: spec.securitySchemes,
    },
    ...spec.extensions,
  };
}
