/** Business events: the transactional outbox, the event catalogue and the reconciliation feed. */
export * from './events/index.js';
export { eventsMigrations } from './migrations/index.js';
