import Joi from 'joi';
import { DEFAULT_SAMPLE_RATIO, DEFAULT_SAMPLER, OTLP_PROTOCOLS } from '../tracing/index.js';
import { API_VERSIONS, DEFAULT_API_VERSION, parseDeprecatedVersions } from '../versions/index.js';

/**
 * Every environment variable the service reads, declared once: its name (the key), its joi rule, its default
 * (or `required`) and a one-line description. The value's TypeScript type is inferred from the declaration
 * (the rule's type, narrowed by `oneOf`; `| undefined` when it has neither default nor `required`), and
 * `Config` is inferred from what `loadConfig` makes of those values, so type and schema cannot drift (ADR 0120).
 * The README's configuration table is generated from this list (`node tools/config-table.mjs`) and checked by a test.
 */
export interface VariableSpec<T = unknown> {
  /** The rule with its default or presence applied: what validates the variable. */
  schema: Joi.Schema;
  description: string;
  /** Only a type: the validated value's type. Never set at run time. */
  readonly valueType?: T;
}

interface Declaration<S extends Joi.AnySchema> {
  rule: S;
  description: string;
}

/** The type a rule validates to (`Joi.string()` → string, `oneOf([...])` → their union). */
type RuleValue<S> = S extends Joi.AnySchema<infer T> ? T : never;

/** One setting. A default or `required: true` makes its value always present. */
function setting<S extends Joi.AnySchema>(
  declared: Declaration<S> & { default: NoInfer<RuleValue<S>> },
): VariableSpec<RuleValue<S>>;
function setting<S extends Joi.AnySchema>(declared: Declaration<S> & { required: true }): VariableSpec<RuleValue<S>>;
function setting<S extends Joi.AnySchema>(declared: Declaration<S>): VariableSpec<RuleValue<S> | undefined>;
function setting(declared: Declaration<Joi.AnySchema> & { default?: unknown; required?: true }): VariableSpec {
  let schema: Joi.Schema = declared.rule;
  if (declared.default !== undefined) schema = schema.default(declared.default);
  if (declared.required) schema = schema.required();
  return { schema, description: declared.description };
}

/** A string that is one of `values`, typed as their union. */
function oneOf<const V extends string>(values: readonly V[]): Joi.StringSchema<V> {
  return Joi.string<V>().valid(...values);
}

/** The validated value of each variable, typed by its declaration. */
export type ConfigValues = {
  [K in keyof typeof configVariables]: (typeof configVariables)[K] extends VariableSpec<infer T> ? T : never;
};

const seconds = () => Joi.number().integer().min(1);
const milliseconds = () => Joi.number().integer().min(1);
/** `host:port` pairs separated by commas; a host may be a name, an IPv4 address or a bracketed IPv6 address. */
/** `id:key` pairs separated by commas; the key is 32 bytes in base64 (44 characters). */
const SECRET_KEY_RING = /^[A-Za-z0-9_-]{1,32}:[A-Za-z0-9+/]{43}=(?:,[A-Za-z0-9_-]{1,32}:[A-Za-z0-9+/]{43}=)*$/;
const HOST_PORT_LIST =
  /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\]):\d{1,5}(?:,(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\]):\d{1,5})*$/;

/** PostgreSQL URLs separated by commas (no spaces). */
const POSTGRES_URL_LIST = /^postgres(?:ql)?:\/\/[^,\s]+(?:,postgres(?:ql)?:\/\/[^,\s]+)*$/;

export const configVariables = {
  NODE_ENV: setting({
    rule: oneOf(['development', 'production', 'test']),
    default: 'development',
    description: 'development, production or test; production refuses unsafe defaults',
  }),
  PORT: setting({ rule: Joi.number().port(), default: 3000, description: 'gateway HTTP port' }),
  DATABASE_URL: setting({
    rule: Joi.string().uri({ scheme: ['postgres', 'postgresql'] }),
    default: 'postgres://postgres@127.0.0.1:5432/wms',
    description: 'PostgreSQL connection URL; the database is created when missing',
  }),
  DATABASE_POOL_MAX: setting({
    rule: Joi.number().integer().min(2).max(200),
    default: 10,
    description:
      "PostgreSQL connections per process (and per replica): half to the prepared-statement pool (pg's own Pool), the rest to Sequelize's",
  }),
  DATABASE_CONNECT_TIMEOUT_MS: setting({
    rule: milliseconds().max(60_000),
    default: 2000,
    description:
      'how long opening a PostgreSQL connection may take (a server that accepts and never answers fails the statement in this time, 503 Retry-After)',
  }),
  DATABASE_ACQUIRE_TIMEOUT_MS: setting({
    rule: milliseconds().max(60_000),
    default: 3000,
    description:
      "how long a gateway's statement waits for a free pooled connection before the request answers 503 Retry-After (the workers wait 30 s)",
  }),
  DATABASE_STATEMENT_TIMEOUT_MS: setting({
    rule: milliseconds().max(600_000),
    default: 5000,
    description:
      "statement_timeout of the gateway's connections: a longer statement is cancelled (503 Retry-After); a statement whose answer does not come in this time plus 1 s (a cut link) fails the same way",
  }),
  DATABASE_WORKER_STATEMENT_TIMEOUT_MS: setting({
    rule: milliseconds().max(3_600_000),
    default: 120000,
    description:
      "statement_timeout of the workers' connections (bulk batches, import chunk merges, snapshot chunks, the dispatchers, the outbox relay); a failed statement's job is retried",
  }),
  DATABASE_LOCK_TIMEOUT_MS: setting({
    rule: milliseconds().max(600_000),
    default: 3000,
    description:
      "lock_timeout of the gateway's connections: a write that waits longer for a row another transaction holds answers 503 Retry-After (LOCK_TIMEOUT) instead of hanging",
  }),
  DATABASE_WORKER_LOCK_TIMEOUT_MS: setting({
    rule: milliseconds().max(3_600_000),
    default: 30000,
    description: "lock_timeout of the workers' connections; a job whose statement gave up waiting is retried",
  }),
  DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: setting({
    rule: milliseconds().max(3_600_000),
    default: 5000,
    description:
      'idle_in_transaction_session_timeout of every service connection: PostgreSQL ends a session that holds a transaction open without a statement this long (a process or link lost mid-transaction), so its row locks go',
  }),
  DATABASE_KEEPALIVE_DELAY_MS: setting({
    rule: milliseconds().max(3_600_000),
    default: 10000,
    description:
      'TCP keepalive of every PostgreSQL connection: idle this long, the socket is probed, so a peer lost without a word (a partition) ends the connection instead of leaving it open for hours',
  }),
  DATABASE_BULK_POOL_MAX: setting({
    rule: Joi.number().integer().min(1).max(50),
    default: 2,
    description:
      "PostgreSQL connections per process, beside DATABASE_POOL_MAX, that hand bulk calls over (store their entries): a burst of bulk calls waits for these, never for the inquiries' and lists' connections",
  }),
  DATABASE_READ_URLS: setting({
    rule: Joi.string().pattern(POSTGRES_URL_LIST, 'postgres://…,postgres://…'),
    description:
      "PostgreSQL streaming replicas (URLs, comma separated) the gateway reads inquiries and lists from (set it on the ingest and webhook workers too: they record the tenants' write positions); unset = every read on DATABASE_URL",
  }),
  READ_REPLICA_MAX_WAIT_MS: setting({
    rule: Joi.number().integer().min(0).max(10_000),
    default: 50,
    description:
      "how long a read of a tenant waits for a replica to replay that tenant's last write before it reads the primary; never less than three of the replica's measured round trips",
  }),
  READ_REPLICA_MAX_LAG_SECONDS: setting({
    rule: seconds().max(3600),
    default: 10,
    description: 'a replica further behind the primary than this (or not answering) gets no reads until it catches up',
  }),
  REDIS_URL: setting({
    rule: Joi.string().uri({ scheme: ['redis', 'rediss'] }),
    default: 'redis://127.0.0.1:6379',
    description: 'Redis for BullMQ, rate limits, idempotency and caches',
  }),
  REDIS_SENTINELS: setting({
    rule: Joi.string().pattern(HOST_PORT_LIST, 'host:port,host:port…'),
    description:
      'Sentinel addresses (host:port,…) of a primary with replicas; with REDIS_SENTINEL_NAME, wins over REDIS_URL',
  }),
  REDIS_SENTINEL_NAME: setting({
    rule: Joi.string().pattern(/^[A-Za-z0-9._-]+$/),
    description: 'name of the primary the sentinels watch (required with REDIS_SENTINELS)',
  }),
  REDIS_CLUSTER_NODES: setting({
    rule: Joi.string().pattern(HOST_PORT_LIST, 'host:port,host:port…'),
    description: 'seed nodes (host:port,…) of a Redis Cluster; wins over REDIS_URL; queue keys get a {hash tag}',
  }),
  REDIS_KEY_PREFIX: setting({
    rule: Joi.string().pattern(/^[A-Za-z0-9_-]+$/),
    default: 'wms',
    description:
      'prefix of every Redis key and BullMQ queue; one per deployment (several share one Redis under different prefixes), claimed by its database at start',
  }),
  JWT_SECRET: setting({
    rule: Joi.string().min(16),
    required: true,
    description:
      'HS256 signing secret, at least 16 characters; production refuses under 32 bytes or fewer than 12 distinct characters; no default',
  }),
  JWT_SECRET_PREVIOUS: setting({
    rule: Joi.string().min(16),
    description:
      'the JWT_SECRET before a rotation: tokens it signed are still accepted (never used to sign) for as long as it is set',
  }),
  SECRETS_ENCRYPTION_KEYS: setting({
    rule: Joi.string().pattern(SECRET_KEY_RING, 'id:base64key,id:base64key…'),
    description:
      'key ring sealing stored secrets (webhook signing secrets, the URLs and credentials of broker destinations): id:base64 of 32 random bytes, comma separated; the first seals, every one opens what it sealed; required in production',
  }),
  JWT_ACCESS_TTL: setting({ rule: seconds(), default: 900, description: 'access token lifetime, seconds' }),
  JWT_REFRESH_TTL: setting({ rule: seconds(), default: 604800, description: 'refresh token lifetime, seconds' }),
  BCRYPT_ROUNDS: setting({
    rule: Joi.number().integer().min(4).max(15),
    default: 12,
    description: 'bcrypt cost factor for passwords (tests may lower it)',
  }),
  MIGRATE_ON_START: setting({
    rule: Joi.boolean(),
    default: true,
    description:
      "an app migrates and seeds the database before it starts (under a lock); false: it waits until a migrate run (a release's migration Job) has applied every migration it knows",
  }),
  SEED_ADMIN_EMAIL: setting({
    rule: Joi.string().email({ tlds: { allow: false } }),
    default: 'admin@wms.local',
    description: 'e-mail of the admin user the seed routine creates',
  }),
  SEED_ADMIN_PASSWORD: setting({
    rule: Joi.string().min(8),
    default: 'change-me-now',
    description: 'password of the seeded admin; the default is refused when NODE_ENV=production',
  }),
  TRUST_PROXY: setting({
    rule: Joi.string(),
    default: 'loopback',
    description:
      'Express trust-proxy setting (hop count, or proxy addresses/CIDRs); decides how far X-Forwarded-For is believed; production refuses true, ranges that together cover every IPv4 or IPv6 address, and more than 10 hops',
  }),
  LOGIN_MAX_FAILED_ATTEMPTS: setting({
    rule: Joi.number().integer().min(1),
    default: 5,
    description: 'consecutive wrong passwords that lock an account',
  }),
  LOGIN_LOCK_SECONDS: setting({
    rule: Joi.number().integer().min(0),
    default: 0,
    description: 'how long a lock lasts, seconds; 0 = until an admin unlocks it (or `npm run wms -- users unlock`)',
  }),
  AUTH_ALLOW_REGISTRATION: setting({
    rule: Joi.boolean(),
    default: false,
    description: 'enables POST /api/v1/auth/register',
  }),
  API_DEFAULT_VERSION: setting({
    rule: oneOf(API_VERSIONS),
    default: DEFAULT_API_VERSION,
    description:
      'the dated integration API version a key or webhook subscription created without apiVersion gets, and a request with neither Wms-Version nor a pinned key is served in',
  }),
  API_DEPRECATED_VERSIONS: setting({
    rule: Joi.string().custom((value: string, helpers) => {
      try {
        parseDeprecatedVersions(value);
        return value;
      } catch (error) {
        return helpers.message({ custom: (error as Error).message });
      }
    }),
    description:
      'versions this deployment deprecates, version=deprecated/sunset days, comma separated (e.g. 2026-11-21=2027-06-01/2029-06-01); their answers carry Deprecation, Sunset and Link; unset = none',
  }),
  IDEMPOTENCY_TTL_SECONDS: setting({
    rule: seconds(),
    default: 86400,
    description: 'how long an Idempotency-Key and its answer are kept',
  }),
  REQUEST_TIMEOUT_MS: setting({
    rule: milliseconds().max(600_000),
    default: 10000,
    description:
      "a request's deadline from its arrival: past it the gateway answers 503 with Retry-After and abandons the work (its transaction rolled back); a synchronous bulk call's wait for its job (BULK_SYNC_TIMEOUT_MS) is added to it; file uploads are bounded by their own IMPORT_UPLOAD_* limits instead",
  }),
  BULK_SYNC_TIMEOUT_MS: setting({
    rule: Joi.number().integer().min(0),
    default: 30000,
    description: 'how long a bulk call waits for its ingest job before answering 202',
  }),
  BULK_JOB_RETENTION_SECONDS: setting({
    rule: seconds(),
    default: 86400,
    description:
      'how long a finished bulk job (its entries and result) is kept in PostgreSQL for GET /jobs/{jobId} after Redis forgot it',
  }),
  REQUEST_LOG_RETENTION_DAYS: setting({
    rule: Joi.number().integer().min(1).max(3660),
    default: 90,
    description:
      'days of the API-key request log kept (the latest requests of a key); a day goes as one partition once older',
  }),
  REQUEST_LOG_ROLLUP_RETENTION_DAYS: setting({
    rule: Joi.number().integer().min(8).max(36600),
    default: 400,
    description: 'days of hourly request counts per key kept (what key statistics and the overview read)',
  }),
  REQUEST_LOG_PARTITIONS_AHEAD_DAYS: setting({
    rule: Joi.number().integer().min(1).max(60),
    default: 7,
    description:
      "daily partitions of the request log made ahead of today (checked at a gateway's start and by the maintenance queue)",
  }),
  WEBHOOK_DELIVERY_RETENTION_DAYS: setting({
    rule: Joi.number().integer().min(1).max(36600),
    default: 30,
    description: 'days an event whose deliveries all succeeded is kept, with its deliveries and their attempts',
  }),
  WEBHOOK_FAILED_DELIVERY_RETENTION_DAYS: setting({
    rule: Joi.number().integer().min(1).max(36600),
    default: 90,
    description:
      'days an event with a failed delivery is kept (counted from its last change), with its deliveries and attempts',
  }),
  STOCK_LEDGER_RETENTION_DAYS: setting({
    rule: Joi.number().integer().min(32).max(36600),
    default: 400,
    description:
      'days of inventory ledger entries kept; a UTC month goes as one partition once wholly older, its balances kept as checkpoints',
  }),
  STOCK_SNAPSHOT_RETENTION_DAYS: setting({
    rule: Joi.number().integer().min(1).max(3660),
    default: 7,
    description: 'days a stock snapshot export and its NDJSON file are kept',
  }),
  AUDIT_RETENTION_DAYS: setting({
    rule: Joi.number().integer().min(1).max(36600),
    description: 'days audit entries are kept; unset = kept for ever',
  }),
  INGEST_CONCURRENCY: setting({
    rule: Joi.number().integer().min(1).max(64),
    default: 4,
    description: 'bulk jobs one ingest worker process runs at once',
  }),
  IMPORT_MAX_BYTES: setting({
    rule: Joi.number().integer().min(1),
    default: 1073741824,
    description: 'largest file import, in bytes after gzip is undone (413 above it)',
  }),
  IMPORT_MAX_ROWS: setting({
    rule: Joi.number().integer().min(1),
    default: 5000000,
    description: 'most rows (lines or CSV records) of one file import (413 above it)',
  }),
  IMPORT_MAX_ROW_BYTES: setting({
    rule: Joi.number().integer().min(1024),
    default: 1048576,
    description:
      'longest NDJSON line or CSV record of a file import, in bytes after gzip is undone (413 ROW_TOO_LARGE naming the line above it)',
  }),
  IMPORT_MAX_CONCURRENT_PER_KEY: setting({
    rule: Joi.number().integer().min(1),
    default: 2,
    description:
      'file imports of one API key (or portal user) being uploaded, queued or running at once (429 above it, before the body is read)',
  }),
  IMPORT_MAX_UPLOADS_IN_FLIGHT: setting({
    rule: Joi.number().integer().min(1),
    default: 4,
    description:
      'file uploads one gateway process streams into PostgreSQL at once, each on a connection of its own (503 with Retry-After above it, before the body is read)',
  }),
  IMPORT_MAX_UPLOADS_PER_TENANT: setting({
    rule: Joi.number().integer().min(1),
    description:
      'file uploads of one tenant in flight at once, counted across every gateway in Redis (503 UPLOADS_BUSY with Retry-After above it, before the body is read); unset = half of IMPORT_MAX_UPLOADS_IN_FLIGHT, at least 1',
  }),
  IMPORT_MIN_UPLOAD_BYTES_PER_SECOND: setting({
    rule: Joi.number().integer().min(0),
    default: 1024,
    description:
      'slowest a file upload may send its body, measured over IMPORT_UPLOAD_RATE_WINDOW_MS (time waiting on PostgreSQL not counted): slower ends with 408 UPLOAD_TOO_SLOW, nothing stored and its slot freed; 0 = no minimum',
  }),
  IMPORT_UPLOAD_RATE_WINDOW_MS: setting({
    rule: Joi.number().integer().min(100),
    default: 30000,
    description: 'the window IMPORT_MIN_UPLOAD_BYTES_PER_SECOND is measured over',
  }),
  IMPORT_UPLOAD_IDLE_TIMEOUT_MS: setting({
    rule: Joi.number().integer().min(100),
    default: 30000,
    description:
      'how long a file upload may send no body bytes before it ends with 408 UPLOAD_IDLE, nothing stored and its slot freed',
  }),
  IMPORT_CHUNK_ROWS: setting({
    rule: Joi.number().integer().min(100).max(50000),
    default: 5000,
    description: 'rows of a file import written in one transaction; a restarted worker resumes after the last one',
  }),
  IMPORT_CONCURRENCY: setting({
    rule: Joi.number().integer().min(1).max(16),
    default: 2,
    description: 'import chunks one ingest worker process writes at once (beside INGEST_CONCURRENCY bulk jobs)',
  }),
  IMPORT_TENANT_CONCURRENCY: setting({
    rule: Joi.number().integer().min(1).max(64),
    default: 2,
    description:
      "chunks of one tenant's imports queued or written at once over every ingest worker; raise it so that more worker replicas share one tenant's large file",
  }),
  IMPORT_RETENTION_SECONDS: setting({
    rule: seconds(),
    default: 604800,
    description: "how long a finished file import's staged rows and failed rows are kept, then purged",
  }),
  WEBHOOK_CONCURRENCY: setting({
    rule: Joi.number().integer().min(1).max(1000),
    default: 100,
    description: 'deliveries one webhook worker process runs at once (they mostly wait on subscribers)',
  }),
  WEBHOOK_CONCURRENCY_PER_SLOW_SUBSCRIPTION: setting({
    rule: Joi.number().integer().min(1).max(1000),
    default: 10,
    description:
      'deliveries to one slow subscription (attempts typically taking 1 s or half the timeout) one webhook worker process runs at once; the rest wait, so a slow subscriber cannot take every slot',
  }),
  WEBHOOK_MAX_SUBSCRIPTIONS_PER_TENANT: setting({
    rule: Joi.number().integer().min(1),
    default: 100,
    description:
      "webhook subscriptions an event of one tenant fans out to at most: the tenant's own plus the cross-tenant ones (409 SUBSCRIPTION_LIMIT on a create past it)",
  }),
  WEBHOOK_TIMEOUT_MS: setting({ rule: milliseconds(), default: 10000, description: 'per-attempt delivery timeout' }),
  WEBHOOK_MAX_ATTEMPTS: setting({
    rule: Joi.number().integer().min(1).max(50),
    default: 10,
    description: 'delivery attempts before a delivery is marked failed',
  }),
  WEBHOOK_BACKOFF_BASE_MS: setting({
    rule: milliseconds(),
    default: 5000,
    description: 'attempt n waits about base * 2^(n-1) with jitter, capped at 6 h',
  }),
  WEBHOOK_DISABLE_AFTER_HOURS: setting({
    rule: Joi.number().integer().min(1).max(8760),
    default: 120,
    description:
      'a subscription whose deliveries have all failed for this many hours is disabled (reason and time kept, event webhook.disabled sent)',
  }),
  WEBHOOK_ALLOW_PRIVATE_URLS: setting({
    rule: Joi.boolean(),
    default: false,
    description: 'allow subscriber URLs on loopback, private, link-local or metadata addresses',
  }),
  WORKER_HEALTH_PORT: setting({
    rule: Joi.number().port(),
    default: 0,
    description: 'port of a worker process health probe (/health/live, /health/ready); 0 = none',
  }),
  EDI_SFTP_PORT: setting({
    rule: Joi.number().port(),
    default: 2222,
    description: "port of the EDI partners' hosted SFTP endpoint (the edi-sftp process); 0 = any free port",
  }),
  EDI_SFTP_HOST: setting({
    rule: Joi.string().hostname(),
    default: '0.0.0.0',
    description: 'address the EDI SFTP endpoint binds to',
  }),
  EDI_SFTP_HOST_KEYS: setting({
    // The value is never echoed back in the refusal: it is a private key.
    rule: Joi.string()
      .pattern(/-----BEGIN [A-Z ]*PRIVATE KEY-----/)
      .messages({ 'string.pattern.base': '{{#label}} must hold PEM private keys (-----BEGIN … PRIVATE KEY-----)' }),
    description:
      'PEM or OpenSSH private host key(s) of the EDI SFTP endpoint, one after the other; required when NODE_ENV=production (unset elsewhere: one key generated once and kept in PostgreSQL)',
  }),
  EDI_SFTP_MAX_FILE_BYTES: setting({
    rule: Joi.number().integer().min(1024),
    default: 67108864,
    description: 'largest file a partner may upload over SFTP; a longer upload fails and nothing of it is stored',
  }),
  METRICS_TOKEN: setting({
    rule: Joi.string().min(16).max(256),
    description:
      'bearer token GET /metrics requires (gateway and worker health servers); required when NODE_ENV=production; unset = /metrics open',
  }),
  RETENTION_SWEEP_INTERVAL_MS: setting({
    rule: milliseconds(),
    default: 600000,
    description:
      'how often the maintenance queue purges expired idempotency records, finished bulk jobs, delivered events, old audit entries and inventory ledger months (once over all workers)',
  }),
  IMPORT_PURGE_INTERVAL_MS: setting({
    rule: milliseconds(),
    default: 600000,
    description:
      "how often the maintenance queue purges finished imports' staged and failed rows (once over all workers)",
  }),
  REQUEST_LOG_MAINTENANCE_INTERVAL_MS: setting({
    rule: milliseconds(),
    default: 3600000,
    description:
      "how often the maintenance queue makes the API-key request log's coming partitions and drops expired ones (once over all workers)",
  }),
  WEBHOOK_DISABLE_SWEEP_INTERVAL_MS: setting({
    rule: milliseconds(),
    default: 60000,
    description:
      'how often the maintenance queue looks for subscriptions failing for WEBHOOK_DISABLE_AFTER_HOURS (once over all workers)',
  }),
  SHUTDOWN_TIMEOUT_MS: setting({
    rule: milliseconds(),
    default: 25000,
    description: 'hard limit for a graceful shutdown after SIGTERM',
  }),
  API_KEY_FAILURES_PER_IP_PER_MINUTE: setting({
    rule: Joi.number().integer().min(1),
    default: 30,
    description:
      'failed API-key look-ups (unknown, revoked or expired key) one client address may make per minute before 429',
  }),
  LOGIN_FAILURES_PER_IP_PER_MINUTE: setting({
    rule: Joi.number().integer().min(1),
    default: 20,
    description: 'failed logins one client address may make per minute before 429 (on top of the per-account lock)',
  }),
  LOG_LEVEL: setting({
    rule: oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
    default: 'info',
    description: 'pino log level',
  }),
  OTEL_EXPORTER_OTLP_ENDPOINT: setting({
    rule: Joi.string().uri({ scheme: ['http', 'https'] }),
    description:
      'OpenTelemetry collector (OTLP) base URL, e.g. http://otel-collector:4318; unset = no tracing: nothing is loaded, started or exported',
  }),
  OTEL_EXPORTER_OTLP_PROTOCOL: setting({
    rule: oneOf(OTLP_PROTOCOLS),
    default: 'http/protobuf',
    description: 'how spans are sent: http/protobuf, http/json or grpc',
  }),
  OTEL_EXPORTER_OTLP_HEADERS: setting({
    rule: Joi.string(),
    description: "headers of each export (key=value,…), e.g. a tracing vendor's API key; keep it in the Secret",
  }),
  OTEL_SERVICE_NAME: setting({
    rule: Joi.string(),
    description: 'service.name of the spans; unset = the app: gateway, ingest-worker or webhook-worker',
  }),
  OTEL_TRACES_SAMPLER: setting({
    rule: oneOf([
      'always_on',
      'always_off',
      'traceidratio',
      'parentbased_always_on',
      'parentbased_always_off',
      'parentbased_traceidratio',
    ]),
    default: DEFAULT_SAMPLER,
    description:
      "which traces are kept; the default follows a caller's sampled traceparent and keeps OTEL_TRACES_SAMPLER_ARG of the others",
  }),
  OTEL_TRACES_SAMPLER_ARG: setting({
    rule: Joi.number().min(0).max(1),
    default: DEFAULT_SAMPLE_RATIO,
    description: 'the ratio of traces started here that are kept (1 = every request)',
  }),
  OTEL_RESOURCE_ATTRIBUTES: setting({
    rule: Joi.string(),
    description:
      'more resource attributes (key=value,…), e.g. deployment.environment.name=production; service.version and wms.process.role are set',
  }),
} satisfies Record<string, VariableSpec>;

export type ConfigVariableName = keyof typeof configVariables;
