import { Joi } from '../validation/index.js';
import { bulkFieldOf, type IngestHandler } from './ingest-handler.js';
import { bulkBodySchema, singleBodySchema } from './bodies.js';

/** A JSON Schema (2020-12, as OpenAPI 3.1 uses it). */
export type JsonSchema = Record<string, unknown>;

interface JoiDescription {
  type?: string;
  flags?: { presence?: string; description?: string; default?: unknown; only?: boolean; label?: string };
  allow?: unknown[];
  rules?: { name: string; args?: Record<string, unknown> }[];
  keys?: Record<string, JoiDescription>;
  items?: JoiDescription[];
}

const STRING_FORMATS: Record<string, string> = {
  guid: 'uuid',
  uuid: 'uuid',
  email: 'email',
  isoDate: 'date-time',
  uri: 'uri',
};

/**
 * Converts a joi schema to JSON Schema from `schema.describe()`: the subset this API's schemas use
 * (objects without unknown keys, strings with limits, formats and enums, numbers, booleans, arrays,
 * null where allowed, defaults and descriptions). Kept small on purpose; a rule it does not know is
 * left out of the document, never guessed.
 */
export function joiToJsonSchema(schema: Joi.Schema | JoiDescription): JsonSchema {
  const description: JoiDescription = Joi.isSchema(schema) ? (schema.describe() as JoiDescription) : schema;
  const out: JsonSchema = {};
  const rules = description.rules ?? [];
  const rule = (name: string) => rules.find((candidate) => candidate.name === name)?.args;
  const allow = description.allow ?? [];
  let type = description.type;

  switch (type) {
    case 'object': {
      const properties: Record<string, JsonSchema> = {};
      const required: string[] = [];
      for (const [name, child] of Object.entries(description.keys ?? {})) {
        properties[name] = joiToJsonSchema(child);
        if (child.flags?.presence === 'required') required.push(name);
      }
      out.type = 'object';
      out.properties = properties;
      if (required.length) out.required = required;
      out.additionalProperties = false;
      break;
    }
    case 'array': {
      out.type = 'array';
      const [items] = description.items ?? [];
      if (items) out.items = joiToJsonSchema(items);
      if (rule('min')) out.minItems = rule('min')!.limit;
      if (rule('max')) out.maxItems = rule('max')!.limit;
      break;
    }
    case 'string': {
      out.type = 'string';
      if (rule('min')) out.minLength = rule('min')!.limit;
      if (rule('max')) out.maxLength = rule('max')!.limit;
      for (const candidate of rules) if (STRING_FORMATS[candidate.name]) out.format = STRING_FORMATS[candidate.name];
      const pattern = rule('pattern')?.regex;
      if (typeof pattern === 'string') out.pattern = pattern.replace(/^\/|\/[a-z]*$/g, '');
      break;
    }
    case 'number': {
      out.type = rules.some((candidate) => candidate.name === 'integer') ? 'integer' : 'number';
      if (rule('min')) out.minimum = rule('min')!.limit;
      if (rule('max')) out.maximum = rule('max')!.limit;
      break;
    }
    case 'boolean':
      out.type = 'boolean';
      break;
    default:
      type = undefined;
  }

  const values = allow.filter((value) => value !== null);
  if (description.flags?.only) out.enum = values;
  if (allow.includes(null) && typeof out.type === 'string') out.type = [out.type, 'null'];
  if (description.flags?.description) out.description = description.flags.description;
  const fallback = description.flags?.default;
  if (fallback !== undefined && typeof fallback !== 'function') out.default = fallback;
  return out;
}

const ERROR_CODES: [number, string, string][] = [
  [
    400,
    'VALIDATION_FAILED',
    'the body, a query parameter or a bulk envelope fails validation; details lists every bad path',
  ],
  [400, 'INVALID_JSON', 'the body is not well-formed JSON'],
  [400, 'TENANT_REQUIRED', 'a cross-tenant key named no tenantId (message: tenantId is required.)'],
  [400, 'REFERENCE_NOT_FOUND', 'a referenced sku, partner, warehouse or tenant does not exist in the tenant'],
  [
    401,
    'MISSING_API_KEY / INVALID_API_KEY / MISSING_SCOPE',
    'guard answers, in the shape { statusCode, message, error, requestId }',
  ],
  [403, 'TENANT_MISMATCH', 'a tenant-bound key named another tenant'],
  [404, 'NOT_FOUND', 'nothing at this path, or a job of another key'],
  [409, 'IDEMPOTENCY_KEY_IN_PROGRESS', 'a request with the same Idempotency-Key is still running'],
  [409, 'IDEMPOTENCY_KEY_MISMATCH', 'the Idempotency-Key was used with a different method, path or body'],
  [
    409,
    'DUPLICATE_REFERENCE',
    'an ASN or order with this referenceNo exists in the tenant; the message names its number',
  ],
  [409, 'INVALID_STATE', "the document's state does not allow the operation; the message names the state"],
  [413, 'PAYLOAD_TOO_LARGE', 'the body exceeds 1 MB'],
  [429, 'RATE_LIMITED', "guard answer: over the key's rateLimitPerMinute (Retry-After header)"],
];

export const INTEGRATION_ERROR_CODES = ERROR_CODES.map(([status, code, meaning]) => ({ status, code, meaning }));

const errorEnvelope = {
  type: 'object',
  required: ['status', 'code', 'message', 'requestId'],
  properties: {
    status: { const: 'error' },
    code: {
      type: 'string',
      enum: ERROR_CODES.filter(([status]) => ![401, 429].includes(status)).map(([, code]) => code),
    },
    message: { type: 'string' },
    details: {
      type: 'array',
      items: { type: 'object', properties: { path: { type: 'string' }, message: { type: 'string' } } },
    },
    requestId: { type: 'string', format: 'uuid' },
  },
};

const bulkEntryResult = {
  type: 'object',
  required: ['index', 'key', 'status'],
  properties: {
    index: { type: 'integer', description: 'position of the entry in the request' },
    key: { type: 'string', description: 'natural key of the entry (a location: warehouseCode/code)' },
    status: { enum: ['created', 'updated', 'error'] },
    data: { type: 'object', description: 'id and natural key, for created and updated entries' },
    error: { type: 'string', description: 'for entries with status error' },
  },
};

const bulkResult = {
  type: 'object',
  required: ['status', 'total', 'created', 'updated', 'errors', 'data'],
  properties: {
    status: { enum: ['success', 'partial'] },
    total: { type: 'integer' },
    created: { type: 'integer' },
    updated: { type: 'integer' },
    errors: {
      type: 'array',
      items: {
        type: 'object',
        properties: { index: { type: 'integer' }, key: { type: 'string' }, error: { type: 'string' } },
      },
    },
    data: { type: 'array', items: { $ref: '#/components/schemas/BulkEntryResult' } },
  },
};

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: JsonSchema, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});
const errorResponse = (description: string) => json(ref('ErrorEnvelope'), description);

function singleWritePath(handler: IngestHandler, components: Record<string, JsonSchema>) {
  const refSchema = joiToJsonSchema(handler.refSchema);
  const document = handler.singleStatus === 201;
  const data = document
    ? {
        type: 'object',
        description: `the created ${handler.title.toLowerCase()} with its lines, as its inquiry shows it`,
      }
    : { ...refSchema, properties: { ...(refSchema.properties as object), created: { type: 'boolean' } } };
  components[handler.title] = joiToJsonSchema(singleBodySchema(handler));
  return {
    post: {
      summary: document
        ? `Create one ${handler.title.toLowerCase()}`
        : `Create or update one ${handler.title.toLowerCase()}`,
      tags: [document ? 'documents' : 'master data'],
      security: [{ ApiKey: [] }, { ApiKeyAuthorization: [] }],
      parameters: [{ $ref: '#/components/parameters/IdempotencyKey' }],
      requestBody: { required: true, content: { 'application/json': { schema: ref(handler.title) } } },
      responses: {
        [handler.singleStatus]: json(
          {
            type: 'object',
            properties: { status: { const: 'success' }, data, requestId: { type: 'string', format: 'uuid' } },
          },
          document ? 'created' : 'written; created tells whether it was new',
        ),
        ...commonErrors(),
      },
    },
  };
}

function bulkPath(handler: IngestHandler, components: Record<string, JsonSchema>) {
  components[`${handler.title}Bulk`] = joiToJsonSchema(bulkBodySchema(handler, handler.entrySchema));
  const merging = handler.mergeDuplicates;
  return {
    post: {
      summary: `${merging ? 'Create or update' : 'Create'} up to ${handler.maxEntries} ${handler.entity} through the ingest worker`,
      description:
        (merging
          ? 'Entries are processed in order; a later entry with the same natural key updates the earlier one. '
          : `Entries are processed in order under the key referenceNo; a referenceNo that exists (earlier in the body too) is an entry error 409 DUPLICATE_REFERENCE. Body: { ${bulkFieldOf(handler)}: [...] }. `) +
        'The call waits up to BULK_SYNC_TIMEOUT_MS for the job, then answers 202 with a statusUrl. ' +
        'With ?dryRun=true every entry is validated and written in a transaction that is rolled back; ' +
        'entries that would be created report id null.',
      tags: [merging ? 'master data' : 'documents'],
      security: [{ ApiKey: [] }, { ApiKeyAuthorization: [] }],
      parameters: [
        { $ref: '#/components/parameters/IdempotencyKey' },
        { name: 'dryRun', in: 'query', schema: { type: 'boolean', default: false } },
        { name: 'Prefer', in: 'header', schema: { const: 'respond-async' }, description: 'answer 202 at once' },
      ],
      requestBody: { required: true, content: { 'application/json': { schema: ref(`${handler.title}Bulk`) } } },
      responses: {
        200: json(ref('BulkEnvelope'), 'every entry succeeded'),
        207: json(ref('BulkEnvelope'), 'at least one entry has an error'),
        202: json(ref('Accepted'), 'the job is still running (or Prefer: respond-async); poll statusUrl'),
        ...commonErrors(),
      },
    },
  };
}

function commonErrors() {
  return {
    400: errorResponse('VALIDATION_FAILED, INVALID_JSON, TENANT_REQUIRED or REFERENCE_NOT_FOUND'),
    401: { description: 'missing, invalid or insufficient API key (guard shape)' },
    403: errorResponse('TENANT_MISMATCH'),
    409: errorResponse('IDEMPOTENCY_KEY_IN_PROGRESS or IDEMPOTENCY_KEY_MISMATCH'),
    413: errorResponse('PAYLOAD_TOO_LARGE'),
  };
}

/** The integration API's OpenAPI 3.1 document, generated from the registered handlers' joi schemas. */
export function buildOpenApiDocument(
  handlers: IngestHandler[],
  options: {
    version: string;
    serverUrl: string;
    paths?: Record<string, unknown>;
    schemas?: Record<string, JsonSchema>;
    /** OpenAPI 3.1's top-level `webhooks`: what the service POSTs to subscribers. */
    webhooks?: Record<string, unknown>;
  },
): Record<string, unknown> {
  const components: Record<string, JsonSchema> = {
    ErrorEnvelope: errorEnvelope,
    BulkEntryResult: bulkEntryResult,
    BulkResult: bulkResult,
    BulkEnvelope: {
      allOf: [ref('BulkResult'), { type: 'object', properties: { requestId: { type: 'string', format: 'uuid' } } }],
    },
    Accepted: {
      type: 'object',
      properties: {
        status: { const: 'accepted' },
        jobId: { type: 'string' },
        statusUrl: { type: 'string' },
        requestId: { type: 'string', format: 'uuid' },
      },
    },
    JobStatus: {
      type: 'object',
      properties: {
        status: { const: 'success' },
        data: {
          type: 'object',
          properties: {
            jobId: { type: 'string' },
            state: { enum: ['queued', 'active', 'completed', 'failed'] },
            result: { oneOf: [ref('BulkResult'), { type: 'null' }] },
            requestId: { type: 'string', description: 'the bulk call that created the job' },
            traceId: { type: 'string', description: 'W3C trace id of that call, when it sent a traceparent' },
          },
        },
        requestId: { type: 'string', format: 'uuid' },
      },
    },
  };
  const paths: Record<string, unknown> = {};
  for (const handler of handlers) {
    paths[`/${handler.entity}`] = singleWritePath(handler, components);
    paths[`/${handler.entity}/bulk`] = bulkPath(handler, components);
  }
  // A path may carry both an entity's POST and a list's GET: merge operations, never replace a path.
  for (const [path, operations] of Object.entries(options.paths ?? {}))
    paths[path] = { ...(paths[path] as object), ...(operations as object) };
  Object.assign(components, options.schemas);
  paths['/jobs/{jobId}'] = {
    get: {
      summary: 'State and result of a bulk job of this API key',
      tags: ['jobs'],
      security: [{ ApiKey: [] }, { ApiKeyAuthorization: [] }],
      parameters: [{ name: 'jobId', in: 'path', required: true, schema: { type: 'string' } }],
      responses: {
        200: json(ref('JobStatus'), 'the job; result is the bulk result once completed'),
        404: errorResponse('no such job for this key'),
      },
    },
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'WMS push integration API',
      version: options.version,
      description:
        'API-key authenticated push API. Write endpoints need scope write, GET endpoints scope read. Every POST ' +
        'accepts Idempotency-Key: the same key and body within IDEMPOTENCY_TTL_SECONDS replays the first answer ' +
        'with Idempotent-Replay: true.',
    },
    servers: [{ url: options.serverUrl }],
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
