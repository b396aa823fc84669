/** API keys: records, verification, network rules and the request log. */
export * from './api-keys/index.js';
