/** Webhooks: subscriptions, fan-out, signing, delivery and their lifecycle. */
export * from './webhooks/index.js';
export { webhooksMigrations } from './migrations/index.js';
