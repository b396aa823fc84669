import type { RequestHandler } from 'express';
import {
  ApiKeyInvalidationBus,
  ApiKeyRequestLog,
  ApiKeyVerifier,
  DEFAULT_REQUEST_LOG_OPTIONS,
  type RequestLogOptions,
} from '@wms/api-keys';
import {
  AttemptThrottle,
  RedisDeadline,
  SlidingWindowLimiter,
  createRedis,
  redisKey,
  type Runtime,
} from '@wms/platform';
import type { Services } from '../services.js';
import { apiKeyGuard, recordKeyRequests } from './api-key-guard.js';
import type { AnsweredHook } from './request-context.js';
import { loginThrottle } from './login-throttle.js';

export interface ApiKeyAccessOptions {
  /**
   * The rate limit counts requests per key over a sliding minute (60 000). Only tests shorten it, to see the
   * window slide without waiting a minute.
   */
  rateLimitWindowMs: number;
  /** Lifetime of a verified key in this process' cache; with pub/sub invalidation on top. */
  cacheTtlMs: number;
  requestLog: RequestLogOptions;
}

export const DEFAULT_API_KEY_ACCESS_OPTIONS: ApiKeyAccessOptions = {
  rateLimitWindowMs: 60_000,
  cacheTtlMs: 500,
  requestLog: DEFAULT_REQUEST_LOG_OPTIONS,
};

/**
 * Redis answers these calls in about a millisecond; 250 ms means it is not answering. After a timeout
 * the calls skip Redis for a second, then one call probes it again.
 */
export const REDIS_DEADLINE = { timeoutMs: 250, pauseMs: 1_000 };

/** The per-process state behind the API-key guard and the login throttle of one gateway. */
export interface ApiKeyAccess {
  guard: RequestHandler;
  /** For the request context: records each answer of a request the guard let in, in the key's log. */
  recordAnswer: AnsweredHook;
  loginThrottle: RequestHandler;
  verifier: ApiKeyVerifier;
  requestLog: ApiKeyRequestLog;
  close(): Promise<void>;
}

/**
 * Wires the guard: verification cache invalidated over Redis pub/sub (its own subscriber connection),
 * the sliding-window limiter, the per-address throttles and the batched request log. Everything it
 * opens is closed by `close`, which the runtime runs before it closes Redis and the database.
 */
export function createApiKeyAccess(
  runtime: Runtime,
  services: Services,
  overrides: Partial<ApiKeyAccessOptions> = {},
): ApiKeyAccess {
  const { config, logger, redis } = runtime;
  const options = {
    ...DEFAULT_API_KEY_ACCESS_OPTIONS,
    requestLog: {
      ...DEFAULT_REQUEST_LOG_OPTIONS,
      retention: {
        retentionDays: config.retention.requestLogDays,
        rollupRetentionDays: config.retention.requestLogRollupDays,
        daysAhead: config.retention.requestLogPartitionsAheadDays,
      },
    },
    ...overrides,
  };
  const prefix = config.redisKeyPrefix;

  const verifier = new ApiKeyVerifier(services.apiKeys.repository, { ttlMs: options.cacheTtlMs, maxEntries: 10_000 });
  const bus = new ApiKeyInvalidationBus(
    redis,
    createRedis(config, 'subscriber', 'gateway-api-key-events'),
    prefix,
    logger,
  );
  void bus.start(
    (keyId) => verifier.invalidate(keyId),
    () => verifier.invalidateAll(),
  );
  services.apiKeys.onChange((keyId) => {
    verifier.invalidate(keyId);
    bus.publish(keyId);
  });

  // Every Redis call of the guard and the login throttle: a hanging Redis costs a request one timeout at most.
  const deadline = new RedisDeadline(REDIS_DEADLINE, (answering) =>
    answering
      ? logger.info('gateway: Redis answers again; limits and throttles are shared across replicas again')
      : logger.warn('gateway: Redis does not answer in time; limits and throttles run in-process until it does'),
  );
  const limiter = new SlidingWindowLimiter(redis, logger, {
    keyPrefix: redisKey(prefix, 'rate-limit', 'api-key'),
    windowMs: options.rateLimitWindowMs,
    deadline,
  });
  const failedLookups = new AttemptThrottle(redis, {
    keyPrefix: redisKey(prefix, 'throttle', 'api-key-lookup'),
    points: config.throttle.apiKeyFailuresPerIpPerMinute,
    durationSeconds: 60,
    deadline,
  });
  const failedLogins = new AttemptThrottle(redis, {
    keyPrefix: redisKey(prefix, 'throttle', 'login'),
    points: config.throttle.loginFailuresPerIpPerMinute,
    durationSeconds: 60,
    deadline,
  });
  const requestLog = new ApiKeyRequestLog(services.apiKeys.repository, logger, options.requestLog);

  const access: ApiKeyAccess = {
    guard: apiKeyGuard({
      verifier,
      limiter,
      failedLookups,
      countRefused: (apiKeyId, outcome) => requestLog.countRefused(apiKeyId, outcome),
    }),
    recordAnswer: recordKeyRequests(requestLog),
    loginThrottle: loginThrottle(failedLogins),
    verifier,
    requestLog,
    async close() {
      await Promise.allSettled([requestLog.close(), bus.close()]);
    },
  };
  runtime.onClose(() => access.close());
  return access;
}
