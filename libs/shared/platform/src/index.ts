/** Platform: configuration, request context, errors, logging, validation, PostgreSQL, Redis, queues, metrics, health, rate limiting, idempotency, pagination and OpenAPI helpers. */
export * from './batching/index.js';
export * from './config/index.js';
export * from './context/index.js';
export * from './db/index.js';
export * from './errors/index.js';
export * from './health/index.js';
export * from './idempotency/index.js';
export * from './lifecycle/index.js';
export * from './logging/index.js';
export * from './metrics/index.js';
export * from './openapi/index.js';
export * from './pagination/index.js';
export * from './queue/index.js';
export * from './rate-limit/index.js';
export * from './redis/index.js';
export * from './runtime/index.js';
export * from './validation/index.js';
