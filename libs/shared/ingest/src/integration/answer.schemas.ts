import type { PartialSchemaMap } from 'joi';
import { ERROR_CATALOGUE, Joi, httpStatusOf, type ErrorCode } from '@wms/platform';
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

/** The codes of the integration handlers' envelope `{ status: "error", code, … }`; status and meaning from the catalogue. */
const ENVELOPE_ERROR_CODES: ErrorCode[] = [
  'VALIDATION_FAILED',
  'INVALID_JSON',
  'TENANT_REQUIRED',
  'REFERENCE_NOT_FOUND',
  'TENANT_MISMATCH',
  'NOT_A_SANDBOX',
  'NOT_FOUND',
  'IDEMPOTENCY_KEY_IN_PROGRESS',
  'IDEMPOTENCY_KEY_MISMATCH',
  'DUPLICATE_REFERENCE',
  'INVALID_STATE',
  'INSUFFICIENT_STOCK',
  'NOTHING_TO_RECEIVE',
  'NO_VARIANCE',
  'BELOW_ALLOCATED',
  'PAYLOAD_TOO_LARGE',
];

/** The API-key guard's refusals, answered in the shape `{ statusCode, message, error, code, requestId }`. */
const GUARD_ERROR_CODES: ErrorCode[] = [
  'MISSING_API_KEY',
  'INVALID_API_KEY',
  'MISSING_SCOPE',
  'IP_NOT_ALLOWED',
  'ORIGIN_NOT_ALLOWED',
  'RATE_LIMITED',
  'TOO_MANY_INVALID_KEYS',
];
const GUARD_SHAPE = 'guard answer, in the shape { statusCode, message, error, code, requestId }';

const rowsOf = (codes: ErrorCode[], prefix?: string) =>
  codes.map((code) => ({
    status: httpStatusOf(code),
    code,
    meaning: prefix ? `${prefix}: ${ERROR_CATALOGUE[code].meaning}` : ERROR_CATALOGUE[code].meaning,
  }));

// By status; Array.prototype.sort is stable, so each list keeps its own order within a status.
export const INTEGRATION_ERROR_CODES = [
  ...rowsOf(ENVELOPE_ERROR_CODES),
  ...rowsOf(GUARD_ERROR_CODES, GUARD_SHAPE),
].sort((a, b) => a.status - b.status);

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
    .valid(...ENVELOPE_ERROR_CODES)
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
