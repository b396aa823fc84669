/** API keys: records, verification, network rules and the request log. */
export * from './api-keys/index.js';
export { apiKeysMigrations } from './migrations/index.js';
