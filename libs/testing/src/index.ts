export * from './test-context.js';
export * from './test-database.js';
export * from './http.js';
export * from './factories.js';
export * from './webhooks.js';
