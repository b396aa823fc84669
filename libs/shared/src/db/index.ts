export { createSequelize, ensureDatabase, dropDatabase, describeDatabaseUrl } from './database.js';
export { runMigrations } from './migrator.js';
export type { Migration, MigrationContext } from './migration.js';
export { defineModels, type Models, type Database } from './models.js';
export { runSeed, DEFAULT_TENANT_CODE, DEFAULT_WAREHOUSE_CODE } from './seed.js';
