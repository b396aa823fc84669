export { createSequelize, ensureDatabase, dropDatabase, describeDatabaseUrl } from './database.js';
export { PreparedStatement } from './prepared.js';
export { runMigrations } from './migrator.js';
export type { Migration, MigrationContext } from './migration.js';
export { registerModel, type Database } from './models.js';
export { isConnectionLoss, isValueOutOfRange } from './connection-loss.js';
export { unitOfWork, type UnitOfWork } from './unit-of-work.js';
export { containsPattern } from './like-pattern.js';
