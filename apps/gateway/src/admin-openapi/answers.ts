import type { PartialSchemaMap } from 'joi';
import { adminModules, roles } from '@wms/identity';
import { API_VERSIONS, Joi } from '@wms/platform';
import {
  DISPOSITIONS,
  RETURN_STATUSES,
  adjustmentAnswerSchema,
  confirmedPickSchema,
  cycleCountAnswerSchema,
  movementSchema,
  orderDocumentSchema,
  shipmentSchema,
} from '@wms/warehouse';
import { IMPORT_MODULES } from '../routes/imports.routes.js';
import { EDI_ANSWER_SCHEMAS } from './edi.answers.js';

const apiVersionAnswer = Joi.string().valid(...API_VERSIONS);

/**
 * The answers of the admin API as joi schemas, by their component name in its OpenAPI document (the routes
 * validate requests, not answers). Every listed field is always present (null when it has no value);
 * objects are open: an answer may gain fields, never lose them. Instants are ISO 8601 strings.
 */

/** An object whose every key is present in the answer. */
const record = (keys: PartialSchemaMap) =>
  Joi.object(
    Object.fromEntries(Object.entries(keys).map(([name, schema]) => [name, (schema as Joi.Schema).required()])),
  ).unknown(true);

const id = Joi.string().guid();
const instant = Joi.string().isoDate();
const count = Joi.number().integer().min(0);
const tenantId = id.allow(null).description('null: a cross-tenant record');
const requestId = Joi.string().guid().description('the id of this request (X-Request-Id)');
const moduleList = Joi.array().items(Joi.link('#AdminModule'));
const described = (description: string) => Joi.object().unknown(true).description(description);

const returnHeaderKeys = {
  id,
  rmaNo: Joi.string(),
  orderNo: Joi.string(),
  warehouseCode: Joi.string(),
  status: Joi.string().valid(...RETURN_STATUSES),
  createdAt: instant,
  updatedAt: instant,
  receivedAt: instant.allow(null).description('when every line was received in full'),
  closedAt: instant.allow(null),
  cancelledAt: instant.allow(null),
};

const publicUserKeys = {
  id,
  email: Joi.string(),
  firstName: Joi.string().allow(''),
  lastName: Joi.string().allow(''),
  role: Joi.link('#Role'),
  language: Joi.string(),
  tenantId,
  adminModules: moduleList.description('the modules the user may read (GET)'),
  adminModulesWrite: moduleList.description('the modules the user may change (every other method)'),
};

const principalKeys = {
  sub: id.description('the user id'),
  email: Joi.string(),
  role: Joi.link('#Role'),
  tenantId,
  adminModules: moduleList,
  adminModulesWrite: moduleList,
};

const apiKeyKeys = {
  id,
  name: Joi.string(),
  description: Joi.string().allow(''),
  scopes: Joi.array().items(Joi.string()).description('read, write and admin grant access; other labels are kept'),
  tenantId,
  expiresAt: instant.allow(null),
  ipWhitelist: Joi.array().items(Joi.string()),
  allowedOrigins: Joi.array().items(Joi.string()),
  rateLimitPerMinute: count.description('0: no limit of its own'),
  active: Joi.boolean(),
  keyPrefix: Joi.string().description('the first characters of the raw key, to recognise it'),
  createdAt: instant,
  lastUsedAt: instant.allow(null),
  expiresSoon: Joi.boolean().description('expires within 14 days and has not expired yet'),
  rolledAt: instant.allow(null).description('when the raw key was last rolled; null if never'),
  apiVersion: apiVersionAnswer.description(
    'the dated API version its calls are served in unless one sends Wms-Version',
  ),
  previousKey: record({ keyPrefix: Joi.string(), expiresAt: instant })
    .allow(null)
    .description('the raw key before the last roll, while its grace period lasts'),
};

const trafficPoint = record({
  at: instant,
  requests: count.description('calls answered'),
  errors: count.description('answers of status 400 and above'),
  rateLimited: count.description('calls the rate limit refused (429)'),
  refused: count.description('calls the IP whitelist or allowed origins refused (403)'),
});

const subscriptionKeys = {
  id,
  tenantId,
  url: Joi.string().description('the HTTP endpoint, or the broker URL with its password masked'),
  destination: Joi.object({
    kind: Joi.string().valid('http', 'rabbitmq', 'nats'),
    url: Joi.string(),
    exchange: Joi.string().description('rabbitmq: the exchange published to'),
    routingKey: Joi.string().description('rabbitmq: the routing-key template'),
    stream: Joi.string().description('nats: the JetStream stream'),
    subject: Joi.string().description('nats: the subject template'),
    hasCredentials: Joi.boolean().description('nats: whether credentials are stored (never shown)'),
  }).description('where deliveries go; passwords and credentials are never returned'),
  events: Joi.array().items(Joi.string()).description('event names, or * for every business event'),
  description: Joi.string().allow(''),
  filter: Joi.object()
    .unknown(true)
    .allow(null)
    .description('a MongoDB-style query over the event data; null: every event'),
  maxDeliveriesPerSecond: count.allow(null).description('the most deliveries per second; null: no limit'),
  ordered: Joi.boolean().description("one document's events go out one at a time, in sequence order"),
  apiVersion: apiVersionAnswer.description('the dated API version its bodies are rendered in'),
  active: Joi.boolean(),
  disabledReason: Joi.string()
    .allow(null)
    .description('why the service disabled it; null when active or disabled by hand'),
  disabledAt: instant.allow(null),
  failingSince: instant.allow(null).description('the first failed attempt with no success since'),
  secretRotatedAt: instant.allow(null),
  previousSecretExpiresAt: instant
    .allow(null)
    .description('until when the previous secret still signs beside the new one'),
  createdAt: instant,
  updatedAt: instant,
};

const delivery = record({
  id,
  eventId: id,
  event: Joi.string(),
  status: Joi.string().valid('pending', 'succeeded', 'failed'),
  attempts: count,
  lastStatusCode: Joi.number().integer().allow(null),
  lastError: Joi.string().allow(null),
  nextAttemptAt: instant.allow(null),
  createdAt: instant,
  updatedAt: instant.description('its latest attempt, or a redelivery'),
});

const session = {
  accessToken: Joi.string().description('a JWT whose claims are AccessTokenClaims; send it as Authorization: Bearer'),
  refreshToken: Joi.string().description('absent when the refresh token was set as a cookie (refreshCookie: true)'),
  requestId,
};

export const ADMIN_ANSWER_SCHEMAS: Record<string, Joi.Schema> = {
  Error: record({
    statusCode: Joi.number().integer().min(400),
    message: Joi.string(),
    error: Joi.string().description('the reason phrase of the status'),
    code: Joi.string().description(
      'the machine-readable code of the refusal (FORBIDDEN, SCOPE_BEYOND_MODULES, VALIDATION_FAILED, …), the same codes the integration API answers',
    ),
    requestId,
  }).keys({
    details: Joi.array()
      .items(record({ path: Joi.string(), message: Joi.string() }))
      .description('every field that fails validation'),
  }),
  Role: Joi.string()
    .valid(...roles)
    .description('admin passes every permission check'),
  AdminModule: Joi.string()
    .valid(...adminModules)
    .description('GET needs the module in adminModules, every other method in adminModulesWrite'),
  AccessTokenClaims: record({ ...principalKeys, iat: count, exp: count.description('unix seconds') }).description(
    'the claims of an access token: who is signed in and what they may do',
  ),
  User: record(publicUserKeys),
  UserRecord: record({
    ...publicUserKeys,
    status: Joi.string().valid('active', 'inactive', 'locked'),
    failedLoginCount: count,
    lastLoginAt: instant.allow(null),
    createdAt: instant,
    updatedAt: instant,
    canManage: Joi.boolean().description('whether the reader may change, disable, enable and unlock this user'),
    canSetCredentials: Joi.boolean().description("whether the reader may set this user's password and e-mail"),
  }),
  Session: Joi.object(session)
    .keys({ accessToken: session.accessToken.required(), user: Joi.link('#User').required() })
    .unknown(true),
  RenewedSession: Joi.object(session).keys({ accessToken: session.accessToken.required() }).unknown(true),
  QueueConsoleSession: record({ url: Joi.string(), expiresIn: count.description('seconds') }),
  Tenant: record({
    id,
    code: Joi.string(),
    name: Joi.string(),
    sandbox: Joi.boolean().description('its API keys may run simulations; its events carry "sandbox": true'),
    createdAt: instant,
  }),
  Warehouse: record({ id, tenantId: id, code: Joi.string(), name: Joi.string(), createdAt: instant }),
  ApiKey: record(apiKeyKeys),
  CreatedApiKey: record({ ...apiKeyKeys, rawKey: Joi.string().description('the raw key: in this answer only') }),
  ApiKeyStats: record({
    requests7d: count,
    requests24h: count,
    errorRate: Joi.number().min(0).max(1),
    avgResponseTimeMs: Joi.number().min(0),
    rateLimited: count.description('calls its rate limit refused (429) over the 7 days'),
    rateLimited24h: count.description('calls its rate limit refused (429) over the last 24 hours'),
    refused: count.description('calls its IP whitelist or allowed origins refused (403) over the 7 days'),
    refused24h: count.description('calls its IP whitelist or allowed origins refused (403) over the last 24 hours'),
    requestsByVersion: Joi.object(Object.fromEntries(API_VERSIONS.map((version) => [version, count]))).description(
      'answered calls over the 7 days by the dated API version that served them',
    ),
    recentRequests: Joi.array().items(
      record({
        endpoint: Joi.string(),
        method: Joi.string(),
        ip: Joi.string().allow(null),
        origin: Joi.string().allow(null),
        statusCode: Joi.number().integer(),
        responseTimeMs: Joi.number().min(0),
        createdAt: instant,
      }),
    ),
    hourly: Joi.array().items(trafficPoint).description('the last 24 hours, one bucket per UTC hour, oldest first'),
    daily: Joi.array().items(trafficPoint).description('the last 7 days, one bucket per UTC day, oldest first'),
  }),
  AuditEntry: record({
    id,
    tenantId,
    action: Joi.string(),
    entityType: Joi.string(),
    entityId: Joi.string(),
    actorUserId: id.allow(null),
    actorEmail: Joi.string().allow(null).description("the actor's e-mail as it is now; null for a system change"),
    changes: Joi.object().unknown(true),
    createdAt: instant,
  }),
  WebhookSubscription: record(subscriptionKeys),
  CreatedWebhookSubscription: record({
    ...subscriptionKeys,
    secret: Joi.string().description('the signing secret: in this answer only'),
  }),
  WebhookDelivery: delivery,
  DeliveryAttempt: record({
    id,
    run: count.description('0 for the first run; each redelivery starts the next'),
    statusCode: Joi.number().integer().allow(null),
    latencyMs: Joi.number().min(0),
    error: Joi.string().allow(null),
    responseBody: Joi.string().allow(null).description("the start of the subscriber's answer"),
    retryAfterMs: count.allow(null).description('the wait the receiver asked for with Retry-After; null: none'),
    createdAt: instant,
  }),
  ApiVersions: record({
    defaultVersion: apiVersionAnswer.description('what a key or subscription created without apiVersion gets'),
    versions: Joi.array().items(
      record({
        version: apiVersionAnswer,
        changes: Joi.array().items(
          record({
            name: Joi.string(),
            summary: Joi.string().description('the change in one line'),
            description: Joi.string(),
          }),
        ),
        deprecatedAt: Joi.string().allow(null).description('the day this deployment deprecated it; null: supported'),
        sunsetAt: Joi.string().allow(null).description('its last day of support; null: none set'),
      }),
    ),
  }),
  EventType: record({
    name: Joi.string(),
    description: Joi.string(),
    subscribable: Joi.boolean(),
    includedInWildcard: Joi.boolean(),
    dataSchema: described('the JSON Schema of the event data'),
    bodySchema: described(
      'the JSON Schema of the whole body: id, event, timestamp, sequence, data, and sandbox (true, only on events of a sandbox tenant)',
    ),
  }),
  FilterTestResult: record({
    tested: count.description('the latest events read'),
    matched: count.description('of them, those the filter lets through'),
    events: Joi.array().items(record({ id, event: Joi.string(), timestamp: instant, matched: Joi.boolean() })),
  }),
  RecoverResult: record({
    since: instant,
    until: instant,
    recovered: count.description('failed deliveries queued again by this call'),
    remaining: count.description('failed deliveries left in the window: call again to queue them'),
    limit: count,
  }),
  ReplayResult: record({
    replayed: Joi.boolean().description("false when the event's delivery was pending already"),
    delivery: Joi.link('#WebhookDelivery'),
  }),
  Overview: record({
    traffic: record({
      requests24h: count,
      errors24h: count,
      errorRate: Joi.number().min(0).max(1),
      rateLimited24h: count.description('calls the keys’ rate limits refused (429)'),
      refused24h: count.description('calls the keys’ IP whitelists or allowed origins refused (403)'),
      activeKeys: count,
      busiestKeys: Joi.array().items(
        record({
          id,
          name: Joi.string(),
          keyPrefix: Joi.string(),
          requests24h: count,
          errors24h: count,
          rateLimited24h: count,
          refused24h: count,
        }),
      ),
    })
      .allow(null)
      .description('null without read access to api-keys'),
    webhooks: record({
      subscriptions: count,
      failingSubscriptions: Joi.array().items(
        record({
          id,
          url: Joi.string(),
          active: Joi.boolean(),
          disabledReason: Joi.string().allow(null),
          failed24h: count,
          lastError: Joi.string().allow(null),
          lastStatusCode: Joi.number().integer().allow(null),
          lastFailureAt: instant.allow(null),
        }),
      ),
    })
      .allow(null)
      .description('null without read access to webhooks'),
    queues: Joi.array()
      .items(
        record({
          name: Joi.string(),
          available: Joi.boolean().description('false when Redis did not answer in time: the counts are zeros'),
          waiting: count,
          active: count,
          delayed: count,
          failed: count,
        }),
      )
      .allow(null)
      .description('null unless a cross-tenant reader of api-keys and webhooks'),
  }),
  Import: record({
    jobId: Joi.string().description('import-<uuid>'),
    type: Joi.string().valid('import'),
    entity: Joi.string().valid(...Object.keys(IMPORT_MODULES)),
    format: Joi.string().valid('ndjson', 'csv'),
    state: Joi.string().valid('queued', 'running', 'completed', 'failed', 'cancelled'),
    total: count.description('rows in the file'),
    processed: count.description('rows of the chunks written so far'),
    created: count,
    updated: count,
    failed: count.description('rows refused; listed by /imports/{id}/errors'),
    createdAt: instant,
    startedAt: instant.allow(null),
    finishedAt: instant.allow(null),
    statusUrl: Joi.string().description("the integration API's status path"),
    errorsUrl: Joi.string().description("the integration API's errors path"),
    requestId: Joi.string().description('the upload request'),
  }).keys({ error: Joi.string().description('why a failed import failed') }),
  ImportAccepted: record({
    status: Joi.string().valid('accepted'),
    jobId: Joi.string().description('import-<uuid>'),
    statusUrl: Joi.string(),
    requestId,
  }),
  OrderInquiry: orderDocumentSchema.description(
    'the order, its lines, pickTasks and summary, as the integration inquiry shows it',
  ),
  ConfirmedPick: confirmedPickSchema,
  Shipment: shipmentSchema.description('the shipment (SHP-…) with its lines'),
  Adjustment: adjustmentAnswerSchema,
  CycleCount: cycleCountAnswerSchema,
  ReturnSummary: record({
    ...returnHeaderKeys,
    lineCount: count,
    qty: Joi.number().description('quantity the return announces, over its lines'),
    receivedQty: Joi.number().description('quantity received so far, over its lines'),
  }),
  Return: record({
    ...returnHeaderKeys,
    lines: Joi.array().items(
      record({
        lineNo: count,
        sku: Joi.string(),
        lotNo: Joi.string().allow(null),
        qty: Joi.number(),
        receivedQty: Joi.number(),
        reason: Joi.string().allow(null),
      }).label('ReturnLine'),
    ),
    receipts: Joi.array().items(
      record({
        id,
        createdAt: instant,
        lines: Joi.array().items(
          record({
            lineNo: count,
            returnLineNo: count,
            sku: Joi.string(),
            lotNo: Joi.string().allow(null),
            qty: Joi.number(),
            disposition: Joi.string().valid(...DISPOSITIONS),
            locationCode: Joi.string().allow(null).description('null when scrapped'),
          }).label('ReturnReceiptLine'),
        ),
      }).label('ReturnReceipt'),
    ),
  }),
  StockMovementsPage: record({
    data: Joi.array().items(movementSchema),
    nextCursor: Joi.string().allow(null).description('null on the last page'),
  }),
  ...EDI_ANSWER_SCHEMAS,
};
