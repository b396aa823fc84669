import Joi from 'joi';
import { configVariables, type ConfigValues } from './config.schema.js';
import { productionRefusal } from './production.js';
import { deprecationOf, parseDeprecatedVersions, type ApiVersion, type VersionPolicy } from '../versions/index.js';

export interface RedisNode {
  host: string;
  port: number;
}

/**
 * Which Redis the service talks to: one node (REDIS_URL), a primary with replicas found through Sentinel,
 * or a Redis Cluster. A sentinel or cluster setting wins over REDIS_URL.
 */
export type RedisShape =
  | { kind: 'single'; url: string }
  | { kind: 'sentinel'; sentinels: RedisNode[]; name: string }
  | { kind: 'cluster'; nodes: RedisNode[] };

/** The settings as the code reads them: inferred from `configOf`, itself typed by the declarations of the variables. */
export type Config = ReturnType<typeof configOf>;
export type DatabaseBounds = Config['database'];

export class ConfigError extends Error {
  override name = 'ConfigError';
}

const DEFAULT_SEED_PASSWORD = 'change-me-now';

const envSchema = Joi.object(
  Object.fromEntries(Object.entries(configVariables).map(([name, spec]) => [name, spec.schema])),
).unknown(true);

/**
 * Validates the environment once, at start-up. A bad value throws a ConfigError whose message is
 * one line naming the variable and what is wrong with it.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const { value: validated, error } = envSchema.validate(present, { abortEarly: true, convert: true });
  if (error) {
    const detail = error.details[0];
    const name = String(detail?.path[0] ?? 'environment');
    const reason =
      detail?.type === 'any.required' ? 'is required' : (detail?.message ?? error.message).replace(/^"[^"]+" /, '');
    throw new ConfigError(`Invalid configuration: ${name} ${reason}`);
  }
  // joi validated (and converted) every variable by the very rules their types are inferred from.
  const value = validated as ConfigValues;
  if (value.NODE_ENV === 'production' && value.SEED_ADMIN_PASSWORD === DEFAULT_SEED_PASSWORD) {
    throw new ConfigError(
      'Invalid configuration: SEED_ADMIN_PASSWORD must be changed from its default when NODE_ENV=production',
    );
  }
  if (value.NODE_ENV === 'production' && !value.SECRETS_ENCRYPTION_KEYS) {
    throw new ConfigError(
      'Invalid configuration: SECRETS_ENCRYPTION_KEYS is required when NODE_ENV=production (id:base64 of 32 random bytes)',
    );
  }
  if (value.NODE_ENV === 'production' && !value.METRICS_TOKEN) {
    throw new ConfigError('Invalid configuration: METRICS_TOKEN is required when NODE_ENV=production');
  }
  const refusal = value.NODE_ENV === 'production' ? productionRefusal(value) : null;
  if (refusal) throw new ConfigError(`Invalid configuration: ${refusal}`);
  return configOf(value);
}

/**
 * The nested settings the code reads, made from the validated variables. Its return type is `Config`: a
 * field's type is its variable's declared type (or what the conversion here makes of it).
 */
function configOf(value: ConfigValues) {
  return {
    nodeEnv: value.NODE_ENV,
    redis: redisShapeOf(value),
    port: value.PORT,
    databaseUrl: value.DATABASE_URL,
    databasePoolMax: value.DATABASE_POOL_MAX,
    /** The bounds of every PostgreSQL connection's waits (ADR 0130); the workers have their own statement and lock timeouts. */
    database: {
      connectTimeoutMs: value.DATABASE_CONNECT_TIMEOUT_MS,
      acquireTimeoutMs: value.DATABASE_ACQUIRE_TIMEOUT_MS,
      statementTimeoutMs: value.DATABASE_STATEMENT_TIMEOUT_MS,
      workerStatementTimeoutMs: value.DATABASE_WORKER_STATEMENT_TIMEOUT_MS,
      lockTimeoutMs: value.DATABASE_LOCK_TIMEOUT_MS,
      workerLockTimeoutMs: value.DATABASE_WORKER_LOCK_TIMEOUT_MS,
      idleInTransactionTimeoutMs: value.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS,
      keepAliveDelayMs: value.DATABASE_KEEPALIVE_DELAY_MS,
      /** Connections of the pool that hands bulk calls over, beside DATABASE_POOL_MAX. */
      handOffPoolMax: value.DATABASE_BULK_POOL_MAX,
    },
    /** Streaming replicas the gateway's inquiries and lists may read; empty: every read on the primary. */
    readReplicas: {
      urls: value.DATABASE_READ_URLS ? readUrlsOf(value.DATABASE_READ_URLS) : [],
      maxWaitMs: value.READ_REPLICA_MAX_WAIT_MS,
      maxLagSeconds: value.READ_REPLICA_MAX_LAG_SECONDS,
    },
    redisUrl: value.REDIS_URL,
    redisKeyPrefix: value.REDIS_KEY_PREFIX,
    jwt: {
      secret: value.JWT_SECRET,
      previousSecret: value.JWT_SECRET_PREVIOUS ?? null,
      accessTtlSeconds: value.JWT_ACCESS_TTL,
      refreshTtlSeconds: value.JWT_REFRESH_TTL,
    },
    /** The key ring of stored secrets, first key seals. Null outside production when SECRETS_ENCRYPTION_KEYS is unset: secrets are then sealed under a key derived from JWT_SECRET (development only). */
    secretsEncryptionKeys: value.SECRETS_ENCRYPTION_KEYS ? keyRingOf(value.SECRETS_ENCRYPTION_KEYS) : null,
    bcryptRounds: value.BCRYPT_ROUNDS,
    /** False: the app does not migrate at start but waits for a migrate run to bring the schema up to date. */
    migrateOnStart: value.MIGRATE_ON_START,
    seedAdmin: { email: String(value.SEED_ADMIN_EMAIL).trim().toLowerCase(), password: value.SEED_ADMIN_PASSWORD },
    trustProxy: value.TRUST_PROXY,
    loginMaxFailedAttempts: value.LOGIN_MAX_FAILED_ATTEMPTS,
    /** 0: a lock lasts until an admin (or the operator command) lifts it; otherwise it expires after this long. */
    loginLockSeconds: value.LOGIN_LOCK_SECONDS,
    allowRegistration: value.AUTH_ALLOW_REGISTRATION,
    /** Which dated version callers get without asking, and which versions the deployment has deprecated. */
    apiVersions: versionPolicyOf(value.API_DEFAULT_VERSION, value.API_DEPRECATED_VERSIONS),
    idempotencyTtlSeconds: value.IDEMPOTENCY_TTL_SECONDS,
    /** A request's deadline from its arrival (a bulk call's wait for its job comes on top). */
    requestTimeoutMs: value.REQUEST_TIMEOUT_MS,
    bulkSyncTimeoutMs: value.BULK_SYNC_TIMEOUT_MS,
    bulkJobRetentionSeconds: value.BULK_JOB_RETENTION_SECONDS,
    /** How long each growing table keeps its rows; null: kept for ever. */
    retention: {
      requestLogDays: value.REQUEST_LOG_RETENTION_DAYS,
      requestLogRollupDays: value.REQUEST_LOG_ROLLUP_RETENTION_DAYS,
      requestLogPartitionsAheadDays: value.REQUEST_LOG_PARTITIONS_AHEAD_DAYS,
      deliveredEventDays: value.WEBHOOK_DELIVERY_RETENTION_DAYS,
      failedEventDays: value.WEBHOOK_FAILED_DELIVERY_RETENTION_DAYS,
      auditDays: value.AUDIT_RETENTION_DAYS ?? null,
      stockLedgerDays: value.STOCK_LEDGER_RETENTION_DAYS,
      stockSnapshotDays: value.STOCK_SNAPSHOT_RETENTION_DAYS,
    },
    ingestConcurrency: value.INGEST_CONCURRENCY,
    imports: {
      maxBytes: value.IMPORT_MAX_BYTES,
      maxRows: value.IMPORT_MAX_ROWS,
      maxRowBytes: value.IMPORT_MAX_ROW_BYTES,
      maxConcurrentPerKey: value.IMPORT_MAX_CONCURRENT_PER_KEY,
      maxUploadsInFlight: value.IMPORT_MAX_UPLOADS_IN_FLIGHT,
      /** Of those, one tenant's at once across every gateway. */
      maxUploadsPerTenant:
        value.IMPORT_MAX_UPLOADS_PER_TENANT ?? Math.max(1, Math.floor(value.IMPORT_MAX_UPLOADS_IN_FLIGHT / 2)),
      /** Slowest an upload may send, over `uploadRateWindowMs`; 0: no minimum. */
      minUploadBytesPerSecond: value.IMPORT_MIN_UPLOAD_BYTES_PER_SECOND,
      uploadRateWindowMs: value.IMPORT_UPLOAD_RATE_WINDOW_MS,
      uploadIdleTimeoutMs: value.IMPORT_UPLOAD_IDLE_TIMEOUT_MS,
      chunkRows: value.IMPORT_CHUNK_ROWS,
      concurrency: value.IMPORT_CONCURRENCY,
      tenantConcurrency: value.IMPORT_TENANT_CONCURRENCY,
      retentionSeconds: value.IMPORT_RETENTION_SECONDS,
    },
    webhook: {
      concurrency: value.WEBHOOK_CONCURRENCY,
      concurrencyPerSlowSubscription: value.WEBHOOK_CONCURRENCY_PER_SLOW_SUBSCRIPTION,
      timeoutMs: value.WEBHOOK_TIMEOUT_MS,
      maxAttempts: value.WEBHOOK_MAX_ATTEMPTS,
      backoffBaseMs: value.WEBHOOK_BACKOFF_BASE_MS,
      allowPrivateUrls: value.WEBHOOK_ALLOW_PRIVATE_URLS,
      disableAfterHours: value.WEBHOOK_DISABLE_AFTER_HOURS,
      maxSubscriptionsPerTenant: value.WEBHOOK_MAX_SUBSCRIPTIONS_PER_TENANT,
    },
    /** Intervals of the maintenance queue's job schedulers (each runs once per interval over all workers). */
    maintenance: {
      retentionSweepMs: value.RETENTION_SWEEP_INTERVAL_MS,
      importPurgeMs: value.IMPORT_PURGE_INTERVAL_MS,
      requestLogMaintenanceMs: value.REQUEST_LOG_MAINTENANCE_INTERVAL_MS,
      webhookDisableSweepMs: value.WEBHOOK_DISABLE_SWEEP_INTERVAL_MS,
    },
    workerHealthPort: value.WORKER_HEALTH_PORT,
    /** The EDI SFTP endpoint (apps/edi-sftp); hostKeys null outside production: a stored, generated key. */
    ediSftp: {
      port: value.EDI_SFTP_PORT,
      host: value.EDI_SFTP_HOST,
      hostKeys: value.EDI_SFTP_HOST_KEYS ?? null,
      maxFileBytes: value.EDI_SFTP_MAX_FILE_BYTES,
    },
    /** Bearer token of GET /metrics; undefined = no token asked (never in production). */
    metricsToken: value.METRICS_TOKEN,
    shutdownTimeoutMs: value.SHUTDOWN_TIMEOUT_MS,
    logLevel: value.LOG_LEVEL,
    throttle: {
      apiKeyFailuresPerIpPerMinute: value.API_KEY_FAILURES_PER_IP_PER_MINUTE,
      loginFailuresPerIpPerMinute: value.LOGIN_FAILURES_PER_IP_PER_MINUTE,
    },
  };
}

function versionPolicyOf(defaultVersion: ApiVersion, deprecated: string | undefined): VersionPolicy {
  const policy = { defaultVersion, deprecations: deprecated ? parseDeprecatedVersions(deprecated) : [] };
  if (deprecationOf(policy, defaultVersion)) {
    throw new ConfigError(
      `Invalid configuration: API_DEFAULT_VERSION ${defaultVersion} is deprecated by API_DEPRECATED_VERSIONS; new keys would start deprecated`,
    );
  }
  return policy;
}

function keyRingOf(list: string): Array<{ id: string; key: Buffer }> {
  const ring = list.split(',').map((entry) => {
    const [id, key] = entry.split(':') as [string, string];
    return { id, key: Buffer.from(key, 'base64') };
  });
  const ids = new Set(ring.map((entry) => entry.id));
  if (ids.size !== ring.length)
    throw new ConfigError('Invalid configuration: SECRETS_ENCRYPTION_KEYS repeats a key id');
  return ring;
}

function readUrlsOf(list: string): string[] {
  return list.split(',').map((url) => {
    try {
      if (new URL(url).pathname.length > 1) return url;
    } catch {
      // named below, without the URL: it may hold a password
    }
    throw new ConfigError('Invalid configuration: DATABASE_READ_URLS holds a URL that names no database');
  });
}

function nodesOf(list: string): RedisNode[] {
  return list.split(',').map((pair) => {
    const colon = pair.lastIndexOf(':');
    return { host: pair.slice(0, colon).replace(/^\[|\]$/g, ''), port: Number(pair.slice(colon + 1)) };
  });
}

function redisShapeOf(value: ConfigValues): RedisShape {
  const { REDIS_SENTINELS: sentinels, REDIS_SENTINEL_NAME: name, REDIS_CLUSTER_NODES: cluster } = value;
  if (sentinels && cluster) {
    throw new ConfigError('Invalid configuration: set REDIS_SENTINELS or REDIS_CLUSTER_NODES, not both');
  }
  if (sentinels && !name) {
    throw new ConfigError('Invalid configuration: REDIS_SENTINEL_NAME is required with REDIS_SENTINELS');
  }
  if (name && !sentinels) {
    throw new ConfigError('Invalid configuration: REDIS_SENTINEL_NAME needs REDIS_SENTINELS');
  }
  if (sentinels && name) return { kind: 'sentinel', sentinels: nodesOf(sentinels), name };
  if (cluster) return { kind: 'cluster', nodes: nodesOf(cluster) };
  return { kind: 'single', url: value.REDIS_URL };
}

/**
 * For an app's entry point: a bad environment prints the one-line reason to stderr and exits 1,
 * instead of an uncaught exception with a stack trace.
 */
export function loadConfigOrExit(env: NodeJS.ProcessEnv = process.env): Config {
  try {
    return loadConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}
