/**
 * Every error code a client can be answered, once: its HTTP status and its meaning. The domain throws an
 * `AppError` naming a code of this catalogue (an unknown code does not compile) and says nothing of HTTP;
 * the HTTP edge (the gateway's error handler) answers with the status named here. `docs/error-codes.md`
 * is generated from it (`node tools/error-codes-table.mjs`) and a spec keeps the two equal (ADR 0023).
 */
export interface ErrorEntry {
  status: number;
  meaning: string;
}

export const ERROR_CATALOGUE = {
  // Requests a client must correct.
  VALIDATION_FAILED: {
    status: 400,
    meaning:
      'the body, a query parameter, a header or a bulk envelope fails validation, or the operation does not fit the document; details lists every bad path',
  },
  INVALID_JSON: { status: 400, meaning: 'the body (or a line of an NDJSON import) is not well-formed JSON' },
  BAD_REQUEST: {
    status: 400,
    meaning:
      'the request itself is malformed (a Content-Encoding or length that does not match the body, malformed percent-encoding); the status is the one Express or its body parser gave, always a 4xx',
  },
  INCOMPLETE_BODY: { status: 400, meaning: 'a file import body ended before it was complete; nothing was stored' },
  TENANT_REQUIRED: {
    status: 400,
    meaning:
      'a cross-tenant key or user named no tenantId (message: tenantId is required.); details say where it goes: the top level of a JSON body, or the query',
  },
  SFTP_KEY_INVALID: { status: 400, meaning: "an SFTP account's public key that ssh2 cannot read as one" },
  SFTP_KEY_PRIVATE: {
    status: 400,
    meaning: "a private key was sent as an SFTP account's public key (it is not stored)",
  },
  REFERENCE_NOT_FOUND: {
    status: 400,
    meaning: 'a referenced sku, partner, warehouse, location, order or tenant does not exist in the tenant',
  },
  INVALID_CURRENT_PASSWORD: { status: 400, meaning: 'a password change named a wrong current password' },
  PASSWORD_UNCHANGED: { status: 400, meaning: 'a password change gave the current password as the new one' },

  // Who is calling.
  UNAUTHORIZED: { status: 401, meaning: 'no valid bearer token: missing, malformed, expired or of the wrong type' },
  MISSING_API_KEY: { status: 401, meaning: 'no API key was sent (X-API-Key, or Authorization: ApiKey <key>)' },
  INVALID_API_KEY: { status: 401, meaning: 'the API key is malformed, unknown, revoked or expired' },
  MISSING_SCOPE: { status: 401, meaning: 'the API key lacks the scope the route needs' },
  INVALID_CREDENTIALS: { status: 401, meaning: 'the e-mail and password do not match an account' },
  ACCOUNT_NOT_ACTIVE: { status: 401, meaning: 'the account is locked or inactive' },
  TOKEN_REVOKED: { status: 401, meaning: 'the token was issued before the password changed' },
  REFRESH_TOKEN_REUSED: {
    status: 401,
    meaning: 'a refresh token was used a second time; its session has ended',
  },
  SESSION_ENDED: { status: 401, meaning: 'the session of this refresh token has ended (signed out or rotated)' },
  NO_SESSION: { status: 401, meaning: 'a refresh without refreshToken and without a session cookie' },

  // What the caller may do.
  FORBIDDEN: { status: 403, meaning: "the caller's role or modules do not allow the request" },
  IP_NOT_ALLOWED: { status: 403, meaning: "the caller's address is not in the API key's IP whitelist" },
  ORIGIN_NOT_ALLOWED: { status: 403, meaning: "the request's Origin is not in the API key's allowedOrigins" },
  TENANT_MISMATCH: { status: 403, meaning: 'a tenant-bound key or user named another tenant' },
  CROSS_TENANT_ADMIN_REQUIRED: { status: 403, meaning: 'the surface is for admins bound to no tenant' },
  NOT_A_SANDBOX: { status: 403, meaning: 'a simulation asked in a tenant that is not a sandbox' },
  REGISTRATION_DISABLED: { status: 403, meaning: 'self-registration is off (AUTH_ALLOW_REGISTRATION)' },
  QUEUE_READ_ONLY: { status: 403, meaning: 'the queue console only retries failed ingest jobs' },
  SCOPE_BEYOND_MODULES: {
    status: 403,
    meaning: 'an API key with these scopes would reach modules its creator does not hold',
  },
  EVENTS_BEYOND_MODULES: {
    status: 403,
    meaning: 'a subscription to these events would reach modules its creator cannot read',
  },
  SETS_BEYOND_MODULES: {
    status: 403,
    meaning: 'a trading partner with these X12 sets would reach modules the user cannot read',
  },
  API_KEYS_MODULE_REQUIRED: { status: 403, meaning: 'binding an API key to a trading partner needs read on api-keys' },
  CREDENTIALS_ADMIN_ONLY: { status: 403, meaning: "only an admin sets another user's password or e-mail" },
  INSUFFICIENT_ROLE: { status: 403, meaning: 'a user manages and assigns only roles ranked below its own' },
  INSUFFICIENT_MODULES: { status: 403, meaning: 'a user manages only users whose modules it holds itself' },
  MODULE_NOT_GRANTABLE: { status: 403, meaning: 'a user grants only modules it holds itself' },
  SELF_CHANGE_NOT_ALLOWED: {
    status: 403,
    meaning: 'a user cannot change its own role, modules or tenant, nor disable or delete itself',
  },

  // What is not there.
  NOT_FOUND: { status: 404, meaning: 'nothing at this path, or a document, job or record of another tenant or key' },

  // What the request took too long to send.
  UPLOAD_IDLE: {
    status: 408,
    meaning: 'a file upload sent no byte for IMPORT_UPLOAD_IDLE_TIMEOUT_MS; nothing was stored',
  },
  UPLOAD_TOO_SLOW: {
    status: 408,
    meaning: 'a file upload sent slower than IMPORT_MIN_UPLOAD_BYTES_PER_SECOND; nothing was stored',
  },

  // What the state of things does not allow.
  INVALID_STATE: {
    status: 409,
    meaning:
      "the document's (or key's, import's, delivery's) state does not allow the operation; the message names the state",
  },
  DUPLICATE_REFERENCE: {
    status: 409,
    meaning:
      'an ASN, order or return with this referenceNo (or rmaNo) exists in the tenant; the message names its number',
  },
  IDEMPOTENCY_KEY_IN_PROGRESS: { status: 409, meaning: 'a request with the same Idempotency-Key is still running' },
  EDI_PARTNER_REQUIRED: { status: 403, meaning: 'POST /edi or its status with a key bound to no EDI trading partner' },
  EDI_PARTNER_DISABLED: { status: 403, meaning: 'POST /edi for a trading partner that is disabled' },
  EDI_NOT_OUTBOUND: { status: 409, meaning: 'only an EDI interchange the service sent can be sent again' },
  EDI_NOT_RESENDABLE: { status: 409, meaning: 'the EDI interchange holds no transaction set to send again' },
  EDI_FILE_EXISTS: { status: 409, meaning: "a file of that name is already in the partner's EDI mailbox folder" },
  PARTNER_ISA_EXISTS: { status: 409, meaning: 'the tenant has a trading partner with this ISA qualifier and ID' },
  API_KEY_BOUND: { status: 409, meaning: 'the API key speaks for another trading partner' },
  SFTP_USERNAME_TAKEN: { status: 409, meaning: "another trading partner's SFTP account has this user name" },
  PARTNER_HAS_DOCUMENTS: {
    status: 409,
    meaning: 'the trading partner exchanged documents, which deleting it would delete: disable it',
  },
  SFTP_KEY_EXISTS: { status: 409, meaning: 'the SFTP account has this public key already' },
  SFTP_KEYS_LIMIT: { status: 409, meaning: 'the SFTP account holds the most public keys it may (20)' },
  EDI_RESEND_INBOUND: { status: 409, meaning: 'only an outbound EDI document can be sent again' },
  EDI_SENDING_DISABLED: { status: 409, meaning: 'the trading partner is disabled: nothing is sent to it' },
  EDI_SET_NOT_SENT: { status: 409, meaning: "the set is not among the trading partner's outbound sets" },
  IDEMPOTENCY_KEY_MISMATCH: {
    status: 409,
    meaning:
      'the Idempotency-Key was used with a different request (JSON compared canonically, query parameters in any order); the message and details name the method, path, query or body that differs',
  },
  INSUFFICIENT_STOCK: {
    status: 409,
    meaning: 'a simulated shipment: the stock does not cover every line of the order',
  },
  NOTHING_TO_RECEIVE: { status: 409, meaning: 'every line of the ASN or return is received already' },
  NO_VARIANCE: { status: 409, meaning: 'a simulated count: the counted quantity is what is on hand' },
  BELOW_ALLOCATED: { status: 409, meaning: 'a stock change would leave on hand below what orders reserve' },
  RETURN_EXCEEDS_SHIPPED: {
    status: 409,
    meaning: 'a return would take back more of a sku than the order shipped, counting earlier returns',
  },
  RECEIPT_EXCEEDS_RETURN: { status: 409, meaning: 'a return receipt would receive more than the return still expects' },
  TENANT_EXISTS: { status: 409, meaning: 'a tenant with this code exists' },
  WAREHOUSE_EXISTS: { status: 409, meaning: 'a warehouse with this code exists in the tenant' },
  USER_EXISTS: { status: 409, meaning: 'a user with this e-mail exists' },
  EVENT_NOT_SUBSCRIBED: { status: 409, meaning: 'a replay named an event the subscription does not subscribe to' },
  SUBSCRIPTION_DISABLED: { status: 409, meaning: 'the webhook subscription is disabled; enable it first' },
  SUBSCRIPTION_LIMIT: {
    status: 409,
    meaning: "a new subscription would pass WEBHOOK_MAX_SUBSCRIPTIONS_PER_TENANT for the tenant's events",
  },

  // What is too large.
  PAYLOAD_TOO_LARGE: {
    status: 413,
    meaning: 'the body exceeds 1 MB, or a file import exceeds IMPORT_MAX_BYTES or IMPORT_MAX_ROWS',
  },
  ROW_TOO_LARGE: {
    status: 413,
    meaning:
      'a line or CSV record of a file import is longer than IMPORT_MAX_ROW_BYTES (or has too many fields); the answer names the line, nothing was stored',
  },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, meaning: 'the body is not of a media type or encoding the route takes' },

  // Too many at once.
  RATE_LIMITED: { status: 429, meaning: "over the API key's rateLimitPerMinute (Retry-After header and retryAfter)" },
  TOO_MANY_INVALID_KEYS: {
    status: 429,
    meaning: 'too many unknown, revoked or expired keys from this address (API_KEY_FAILURES_PER_IP_PER_MINUTE)',
  },
  TOO_MANY_LOGIN_ATTEMPTS: {
    status: 429,
    meaning: 'too many failed logins from this address (LOGIN_FAILURES_PER_IP_PER_MINUTE)',
  },
  TOO_MANY_IMPORTS: {
    status: 429,
    meaning: 'IMPORT_MAX_CONCURRENT_PER_KEY imports of this key are uploading, queued or running; before the body',
  },

  // The service's side.
  INTERNAL_ERROR: { status: 500, meaning: 'an unexpected error; the answer carries no detail of it' },
  INGEST_FAILED: { status: 500, meaning: 'the bulk job of this call failed; retry the request' },
  SERVICE_UNAVAILABLE: { status: 503, meaning: 'the bulk job could not be stored or queued; retry later' },
  DATABASE_UNAVAILABLE: { status: 503, meaning: 'the database is not available right now; retry (Retry-After)' },
  LOCK_TIMEOUT: {
    status: 503,
    meaning: 'a record the request changes is held by another change past DATABASE_LOCK_TIMEOUT_MS; retry',
  },
  STATEMENT_TIMEOUT: { status: 503, meaning: 'the database took longer than DATABASE_STATEMENT_TIMEOUT_MS; retry' },
  REQUEST_TIMEOUT: {
    status: 503,
    meaning: 'the request passed its deadline (REQUEST_TIMEOUT_MS); its work was abandoned',
  },
  UPLOADS_BUSY: {
    status: 503,
    meaning: "the gateway's or the tenant's upload slots are all taken (Retry-After); before the body",
  },
  NOT_SEEDED: { status: 503, meaning: 'the default tenant does not exist yet; the seed routine has not run' },
} as const satisfies Record<string, ErrorEntry>;

/** A code of the catalogue: what an `AppError` carries. */
export type ErrorCode = keyof typeof ERROR_CATALOGUE;

export const ERROR_CODES = Object.keys(ERROR_CATALOGUE) as ErrorCode[];

export function isErrorCode(value: string): value is ErrorCode {
  return Object.hasOwn(ERROR_CATALOGUE, value);
}

/** The HTTP status the catalogue names for `code`. */
export function httpStatusOf(code: ErrorCode): number {
  return ERROR_CATALOGUE[code].status;
}

/** The catalogue as a Markdown table, by status then code: what `docs/error-codes.md` holds. */
export function errorCodesMarkdown(): string {
  const rows = [...ERROR_CODES]
    .sort((a, b) => httpStatusOf(a) - httpStatusOf(b) || a.localeCompare(b))
    .map((code) => `| ${httpStatusOf(code)} | \`${code}\` | ${ERROR_CATALOGUE[code].meaning} |`);
  return ['| status | code | meaning |', '|---|---|---|', ...rows].join('\n');
}
