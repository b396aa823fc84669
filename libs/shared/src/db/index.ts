export { createSequelize, ensureDatabase, dropDatabase, describeDatabaseUrl } from './database.js';
export { PreparedStatement } from './prepared.js';
export { onOneConnection, type SessionQuery } from './session.js';
/** The first name of PreparedStatement, when it served reads only. */
export { PreparedStatement as PreparedRead } from './prepared.js';
export { runMigrations } from './migrator.js';
export { migrations } from './migrations/index.js';
export type { Migration, MigrationContext } from './migration.js';
export { registerModel, type Database } from './models.js';
export { isConnectionLoss, isValueOutOfRange } from './connection-loss.js';
export { unitOfWork, type UnitOfWork } from './unit-of-work.js';
export { containsPattern } from './like-pattern.js';
