import type { RequestHandler } from 'express';
import {
  ApiKeyInvalidationBus,
  ApiKeyRequestLog,
  ApiKeyVerifier,
  AttemptThrottle,
  DEFAULT_REQUEST_LOG_OPTIONS,
  SlidingWindowLimiter,
  createRedis,
  redisKey,
  type RequestLogOptions,
  type Runtime,
  type Services,
} from '@wms/shared';
import { apiKeyGuard } from './api-key-guard.js';
import { loginThrottle } from './login-throttle.js';

export interface ApiKeyAccessOptions {
  /** 60 000 (seed 8). Only tests shorten it, to see the window slide without waiting a minute. */
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

/** The per-process state behind the API-key guard and the login throttle of one gateway. */
export interface ApiKeyAccess {
  guard: RequestHandler;
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
export function createApiKeyAccess(runtime: Runtime, services: Services, overrides: Partial<ApiKeyAccessOptions> = {}): ApiKeyAccess {
  const options = { ...DEFAULT_API_KEY_ACCESS_OPTIONS, ...overrides };
  const { config, logger, redis } = runtime;
  const prefix = config.redisKeyPrefix;

  const verifier = new ApiKeyVerifier(services.apiKeys.repository, { ttlMs: options.cacheTtlMs, maxEntries: 10_000 });
  const bus = new ApiKeyInvalidationBus(redis, createRedis(config, 'subscriber', 'gateway-api-key-events'), prefix, logger);
  void bus.start(
    (keyId) => verifier.invalidate(keyId),
    () => verifier.invalidateAll(),
  );
  services.apiKeys.onChange((keyId) => {
    verifier.invalidate(keyId);
    bus.publish(keyId);
  });

  const limiter = new SlidingWindowLimiter(redis, logger, {
    keyPrefix: redisKey(prefix, 'rate-limit', 'api-key'),
    windowMs: options.rateLimitWindowMs,
    redisTimeoutMs: 500,
  });
  const failedLookups = new AttemptThrottle(redis, {
    keyPrefix: redisKey(prefix, 'throttle', 'api-key-lookup'),
    points: config.throttle.apiKeyFailuresPerIpPerMinute,
    durationSeconds: 60,
  });
  const failedLogins = new AttemptThrottle(redis, {
    keyPrefix: redisKey(prefix, 'throttle', 'login'),
    points: config.throttle.loginFailuresPerIpPerMinute,
    durationSeconds: 60,
  });
  const requestLog = new ApiKeyRequestLog(services.apiKeys.repository, logger, options.requestLog);

  const access: ApiKeyAccess = {
    guard: apiKeyGuard({ verifier, limiter, failedLookups, requestLog }),
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
