import type { PartialSchemaMap } from 'joi';
import { Joi } from '@wms/platform';
import {
  asnRefSchema,
  itemRefSchema,
  locationRefSchema,
  orderRefSchema,
  partnerRefSchema,
  returnRefSchema,
  snapshotViewSchema,
} from '@wms/warehouse';

/**
 * The answers of the integration API, as joi schemas the OpenAPI document is generated from (routes validate
 * requests, not answers; a spec validates every route's real answers against the document). The envelopes
 * are open (`unknown(true)`); what they carry states its fields exactly.
 */

/** The codes of the integration handlers' envelope `{ status: "error", code, … }`. */
const ENVELOPE_ERROR_CODES: [number, string, string][] = [
  [
    400,
    'VALIDATION_FAILED',
    'the body, a query parameter or a bulk envelope fails validation; details lists every bad path',
  ],
  [400, 'INVALID_JSON', 'the body is not well-formed JSON'],
  [
    400,
    'TENANT_REQUIRED',
    'a cross-tenant key named no tenantId (message: tenantId is required.); details say where it goes: the top level of a JSON body, or the query',
  ],
  [400, 'REFERENCE_NOT_FOUND', 'a referenced sku, partner, warehouse or tenant does not exist in the tenant'],
  [403, 'TENANT_MISMATCH', 'a tenant-bound key named another tenant'],
  [403, 'NOT_A_SANDBOX', 'a simulation asked in a tenant that is not a sandbox'],
  [403, 'EDI_PARTNER_REQUIRED', 'POST /edi or its status with a key bound to no EDI trading partner'],
  [403, 'EDI_PARTNER_DISABLED', 'POST /edi for a trading partner that is disabled'],
  [404, 'NOT_FOUND', 'nothing at this path, or a job of another key'],
  [409, 'IDEMPOTENCY_KEY_IN_PROGRESS', 'a request with the same Idempotency-Key is still running'],
  [
    409,
    'IDEMPOTENCY_KEY_MISMATCH',
    'the Idempotency-Key was used with a different request (JSON compared canonically, query parameters in any order); the message and details name the method, path, query or body that differs',
  ],
  [
    409,
    'DUPLICATE_REFERENCE',
    'an ASN or order with this referenceNo exists in the tenant; the message names its number',
  ],
  [409, 'INVALID_STATE', "the document's state does not allow the operation; the message names the state"],
  [409, 'INSUFFICIENT_STOCK', 'a simulated shipment: the stock does not cover every line of the order'],
  [409, 'NOTHING_TO_RECEIVE', 'a simulated receipt: every line of the ASN is received'],
  [409, 'NO_VARIANCE', 'a simulated count: the counted quantity is what is on hand'],
  [409, 'BELOW_ALLOCATED', 'a stock change would leave on hand below what orders reserve'],
  [413, 'PAYLOAD_TOO_LARGE', 'the body exceeds 1 MB (POST /edi: EDI_HTTP_MAX_BYTES)'],
  [415, 'UNSUPPORTED_MEDIA_TYPE', 'the body is not of a type the route takes (POST /edi: X12 text)'],
];

/** The API-key guard's refusals, answered in the shape `{ statusCode, message, error, code, requestId }`. */
const GUARD_ERROR_CODES: [number, string, string][] = [
  [
    401,
    'MISSING_API_KEY / INVALID_API_KEY / MISSING_SCOPE',
    'guard answers, in the shape { statusCode, message, error, code, requestId }',
  ],
  [
    403,
    'IP_NOT_ALLOWED / ORIGIN_NOT_ALLOWED',
    "guard answers: the caller's address is not in the key's IP whitelist, or its Origin not in allowedOrigins",
  ],
  [429, 'RATE_LIMITED', "guard answer: over the key's rateLimitPerMinute (Retry-After header)"],
  [429, 'TOO_MANY_INVALID_KEYS', 'guard answer: too many unknown keys from this address (Retry-After header)'],
];

// By status; Array.prototype.sort is stable, so each list keeps its own order within a status.
const ERROR_CODES = [...ENVELOPE_ERROR_CODES, ...GUARD_ERROR_CODES].sort(([a], [b]) => a - b);

export const INTEGRATION_ERROR_CODES = ERROR_CODES.map(([status, code, meaning]) => ({ status, code, meaning }));

const open = (keys: PartialSchemaMap) => Joi.object(keys).unknown(true);
const requestId = Joi.string().guid().description('the id of this request (X-Request-Id)');

/** `{ status: "success", data, requestId }`: the answer of a single write, an inquiry or a job. */
export function successSchema(data: Joi.Schema): Joi.ObjectSchema {
  return open({ status: Joi.valid('success').required(), data: data.required(), requestId: requestId.required() });
}

/** `{ status: "success", data: [...], nextCursor, requestId }`: one page of a list or of the event feed. */
export function pageSchema(item: Joi.Schema, lastPage: string): Joi.ObjectSchema {
  return open({
    status: Joi.valid('success').required(),
    data: Joi.array().items(item).required(),
    nextCursor: Joi.string().allow(null).required().description(lastPage),
    requestId: requestId.required(),
  });
}

const errorEnvelope = open({
  status: Joi.valid('error').required(),
  code: Joi.string()
    .valid(...ENVELOPE_ERROR_CODES.map(([, code]) => code))
    .required(),
  message: Joi.string().required(),
  details: Joi.array().items(open({ path: Joi.string(), message: Joi.string() })),
  requestId: requestId.required(),
});

/** The API-key guard's refusal (401, and 403 and 429 of the guard): the plain shape, not the envelope. */
const guardError = open({
  statusCode: Joi.number().integer().required(),
  message: Joi.string().required(),
  error: Joi.string().required().description('the reason phrase of the status'),
  code: Joi.string().required().description('MISSING_API_KEY, INVALID_API_KEY, MISSING_SCOPE, …'),
  details: Joi.array().items(open({ path: Joi.string(), message: Joi.string() })),
  retryAfter: Joi.number().integer().description('seconds, on a 429'),
  requestId: requestId.required(),
});

const bulkEntryResult = open({
  index: Joi.number().integer().required().description('position of the entry in the request'),
  key: Joi.string().required().description('natural key of the entry (a location: warehouseCode/code)'),
  status: Joi.string().valid('created', 'updated', 'error').required(),
  data: Joi.alternatives(
    itemRefSchema,
    partnerRefSchema,
    locationRefSchema,
    asnRefSchema,
    orderRefSchema,
    returnRefSchema,
  ).description("the entry's id and natural key, for created and updated entries"),
  error: Joi.string().description('for entries with status error'),
});

const bulkResultKeys = {
  status: Joi.string().valid('success', 'partial').required(),
  total: Joi.number().integer().required(),
  created: Joi.number().integer().required(),
  updated: Joi.number().integer().required(),
  errors: Joi.array()
    .items(open({ index: Joi.number().integer(), key: Joi.string(), error: Joi.string() }))
    .required(),
  data: Joi.array().items(Joi.link('#BulkEntryResult')).required(),
};

/** An import as GET /jobs/{jobId} and its cancel answer it (`ImportView`), for the OpenAPI document. */
export const importViewSchema = Joi.object({
  jobId: Joi.string().description('import-<uuid>'),
  type: Joi.valid('import'),
  entity: Joi.string(),
  format: Joi.string().valid('ndjson', 'csv'),
  state: Joi.string().valid('queued', 'running', 'completed', 'failed', 'cancelled'),
  total: Joi.number().integer().description('rows in the file'),
  processed: Joi.number().integer().description('rows of the chunks written so far'),
  created: Joi.number().integer(),
  updated: Joi.number().integer(),
  failed: Joi.number().integer().description('rows refused; listed by errorsUrl'),
  createdAt: Joi.string().isoDate(),
  startedAt: Joi.string().isoDate().allow(null),
  finishedAt: Joi.string().isoDate().allow(null),
  statusUrl: Joi.string(),
  errorsUrl: Joi.string(),
  requestId: Joi.string().description('the upload request'),
  error: Joi.string().optional().description('why a failed import failed'),
})
  .options({ presence: 'required' })
  .label('ImportStatus');

const bulkJobView = Joi.object({
  jobId: Joi.string().required(),
  state: Joi.string().valid('queued', 'active', 'completed', 'failed').required(),
  result: Joi.alternatives(Joi.link('#BulkResult'), Joi.valid(null))
    .required()
    .description('the bulk result once completed'),
  requestId: Joi.string().required().description('the bulk call that created the job'),
  traceId: Joi.string().description(
    "W3C trace id of that call: its traceparent's, or the trace tracing started for it",
  ),
}).label('BulkJobView');

/** A job of this key: a bulk job, a file import (`import-…`) or a stock snapshot (`snapshot-…`). */
const jobStatus = successSchema(Joi.alternatives(bulkJobView, importViewSchema, snapshotViewSchema));

/** The shared answers, by their component name in the document. */
export const ANSWER_SCHEMAS: Record<string, Joi.Schema> = {
  ErrorEnvelope: errorEnvelope,
  GuardError: guardError,
  BulkEntryResult: bulkEntryResult,
  BulkResult: open(bulkResultKeys),
  BulkEnvelope: open({ ...bulkResultKeys, requestId: requestId.required() }),
  Accepted: open({
    status: Joi.valid('accepted').required(),
    jobId: Joi.string().required(),
    statusUrl: Joi.string().required().description('GET it for the job state and result'),
    requestId: requestId.required(),
  }),
  JobStatus: jobStatus,
};
