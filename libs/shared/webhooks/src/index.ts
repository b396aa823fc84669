/** Webhooks: subscriptions, fan-out, signing, delivery to HTTP endpoints and brokers, and their lifecycle. */
export * from './webhooks/index.js';
export * from './destinations/index.js';
export { webhooksMigrations } from './migrations/index.js';
