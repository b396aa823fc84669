import { Joi, type RouteAnswer } from '@wms/platform';
import { successSchema, type IntegrationRoute } from '@wms/ingest';

/** The EDI routes of the integration API (ADR 0207): mounted by edi.routes.ts, documented in the OpenAPI document. */

const error = (description: string): RouteAnswer => ({ description, body: 'ErrorEnvelope' });

const X12 = { type: 'string', description: 'one ASC X12 interchange, ISA to IEA' };

/** What GET /edi/interchanges/{id} answers: the interchange's state and, once read, its acknowledgment. */
export const ediInterchangeStatusSchema = Joi.object({
  id: Joi.string().guid().required(),
  state: Joi.string()
    .valid('received', 'processing', 'accepted', 'partially_accepted', 'rejected', 'unreadable', 'duplicate')
    .required(),
  interchangeControl: Joi.string().allow(null).required().description('ISA13 once read'),
  setCodes: Joi.array().items(Joi.string()).required(),
  error: Joi.string().allow(null).required(),
  duplicateOf: Joi.string().guid().allow(null).required(),
  createdAt: Joi.date().iso().required(),
  processedAt: Joi.date().iso().allow(null).required(),
  acknowledgment: Joi.object({
    id: Joi.string().guid().required(),
    setCode: Joi.string().valid('997', 'TA1').required(),
    interchangeControl: Joi.string().allow(null).required(),
    content: Joi.string().required().description('the 997 or TA1 as sent, X12 text'),
  })
    .allow(null)
    .required()
    .description('null while the interchange is being read, and for a group of 997s (never answered)'),
}).label('EdiInterchangeStatus');

const acceptedSchema = Joi.object({
  status: Joi.valid('accepted').required(),
  interchangeId: Joi.string().guid().required(),
  statusUrl: Joi.string().required(),
  requestId: Joi.string().required(),
}).label('EdiAccepted');

export const EDI_ROUTES = {
  receive: {
    method: 'post',
    path: '/edi',
    scope: 'write',
    summary: 'Send one X12 interchange (940, 943, 856, 997) as the trading partner the key is bound to',
    description:
      'The body is the raw interchange (application/edi-x12, application/edi or text/plain; at most ' +
      'EDI_HTTP_MAX_BYTES). It is stored, then read by the ingest worker: the call waits up to EDI_HTTP_WAIT_MS ' +
      'and answers 200 with our 997 (or TA1 for an interchange that cannot be read) as application/edi-x12, ' +
      'or 202 with a statusUrl. The same interchange again (same ISA13) creates nothing and is answered with the ' +
      'first one’s 997; a group of 997s is answered 200 with no body (we never acknowledge a 997). ' +
      'Idempotency-Key: the fingerprint is the body’s bytes; a replay answers the interchange’s status as JSON.',
    tag: 'edi',
    requestMedia: { 'application/edi-x12': X12, 'application/edi': X12, 'text/plain': X12 },
    responses: {
      200: {
        description: 'read: the 997 or TA1 (empty for an interchange of 997s)',
        media: { 'application/edi-x12': { type: 'string' } },
      },
      202: { description: 'stored, still being read: poll statusUrl', body: acceptedSchema },
      400: error('VALIDATION_FAILED: an empty body'),
      403: error('EDI_PARTNER_REQUIRED: the key is bound to no trading partner; EDI_PARTNER_DISABLED'),
      409: error('IDEMPOTENCY_KEY_IN_PROGRESS or IDEMPOTENCY_KEY_MISMATCH'),
      413: error('PAYLOAD_TOO_LARGE: over EDI_HTTP_MAX_BYTES; nothing stored'),
      415: error('UNSUPPORTED_MEDIA_TYPE: not application/edi-x12, application/edi or text/plain'),
    },
  },
  interchange: {
    method: 'get',
    path: '/edi/interchanges/:interchangeId',
    scope: 'read',
    summary: 'The state of an interchange sent to POST /edi, and our 997 or TA1 once it is read',
    tag: 'edi',
    responses: {
      200: { description: 'the interchange', body: successSchema(ediInterchangeStatusSchema) },
      403: error('EDI_PARTNER_REQUIRED: the key is bound to no trading partner'),
      404: error("NOT_FOUND: no such interchange of the key's partner"),
    },
  },
} satisfies Record<string, IntegrationRoute>;
