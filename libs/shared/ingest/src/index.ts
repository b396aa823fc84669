/**
 * Ingest: the integration API's machinery above the warehouse: its HTTP envelopes and OpenAPI builder, the
 * bulk engine and the entities it accepts, bulk jobs (and the ingest queue's contract) and imports.
 */
export * from './bulk-jobs/index.js';
export * from './dispatch/index.js';
export * from './entities/index.js';
export * from './imports/index.js';
export * from './integration/index.js';
export { ingestMigrations } from './migrations/index.js';
