import Joi from 'joi';
import { configVariables } from './config.schema.js';

export interface Config {
  nodeEnv: 'development' | 'production' | 'test';
  port: number;
  databaseUrl: string;
  databasePoolMax: number;
  redisUrl: string;
  redisKeyPrefix: string;
  jwt: { secret: string; accessTtlSeconds: number; refreshTtlSeconds: number };
  bcryptRounds: number;
  seedAdmin: { email: string; password: string };
  trustProxy: string;
  loginMaxFailedAttempts: number;
  allowRegistration: boolean;
  idempotencyTtlSeconds: number;
  bulkSyncTimeoutMs: number;
  ingestConcurrency: number;
  webhook: {
    concurrency: number;
    concurrencyPerSlowSubscription: number;
    timeoutMs: number;
    maxAttempts: number;
    backoffBaseMs: number;
    allowPrivateUrls: boolean;
  };
  workerHealthPort: number;
  shutdownTimeoutMs: number;
  logLevel: string;
  throttle: { apiKeyFailuresPerIpPerMinute: number; loginFailuresPerIpPerMinute: number };
}

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
  const { value, error } = envSchema.validate(present, { abortEarly: true, convert: true });
  if (error) {
    const detail = error.details[0];
    const name = String(detail?.path[0] ?? 'environment');
    const reason = detail?.type === 'any.required' ? 'is required' : (detail?.message ?? error.message).replace(/^"[^"]+" /, '');
    throw new ConfigError(`Invalid configuration: ${name} ${reason}`);
  }
  if (value.NODE_ENV === 'production' && value.SEED_ADMIN_PASSWORD === DEFAULT_SEED_PASSWORD) {
    throw new ConfigError('Invalid configuration: SEED_ADMIN_PASSWORD must be changed from its default when NODE_ENV=production');
  }
  return {
    nodeEnv: value.NODE_ENV,
    port: value.PORT,
    databaseUrl: value.DATABASE_URL,
    databasePoolMax: value.DATABASE_POOL_MAX,
    redisUrl: value.REDIS_URL,
    redisKeyPrefix: value.REDIS_KEY_PREFIX,
    jwt: { secret: value.JWT_SECRET, accessTtlSeconds: value.JWT_ACCESS_TTL, refreshTtlSeconds: value.JWT_REFRESH_TTL },
    bcryptRounds: value.BCRYPT_ROUNDS,
    seedAdmin: { email: String(value.SEED_ADMIN_EMAIL).trim().toLowerCase(), password: value.SEED_ADMIN_PASSWORD },
    trustProxy: value.TRUST_PROXY,
    loginMaxFailedAttempts: value.LOGIN_MAX_FAILED_ATTEMPTS,
    allowRegistration: value.AUTH_ALLOW_REGISTRATION,
    idempotencyTtlSeconds: value.IDEMPOTENCY_TTL_SECONDS,
    bulkSyncTimeoutMs: value.BULK_SYNC_TIMEOUT_MS,
    ingestConcurrency: value.INGEST_CONCURRENCY,
    webhook: {
      concurrency: value.WEBHOOK_CONCURRENCY,
      concurrencyPerSlowSubscription: value.WEBHOOK_CONCURRENCY_PER_SLOW_SUBSCRIPTION,
      timeoutMs: value.WEBHOOK_TIMEOUT_MS,
      maxAttempts: value.WEBHOOK_MAX_ATTEMPTS,
      backoffBaseMs: value.WEBHOOK_BACKOFF_BASE_MS,
      allowPrivateUrls: value.WEBHOOK_ALLOW_PRIVATE_URLS,
    },
    workerHealthPort: value.WORKER_HEALTH_PORT,
    shutdownTimeoutMs: value.SHUTDOWN_TIMEOUT_MS,
    logLevel: value.LOG_LEVEL,
    throttle: {
      apiKeyFailuresPerIpPerMinute: value.API_KEY_FAILURES_PER_IP_PER_MINUTE,
      loginFailuresPerIpPerMinute: value.LOGIN_FAILURES_PER_IP_PER_MINUTE,
    },
  };
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
