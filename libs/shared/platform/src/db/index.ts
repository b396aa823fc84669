export {
  createSequelize,
  type PoolOptions,
  type StatementPool,
  connectionBudget,
  ensureDatabase,
  dropDatabase,
  describeDatabaseUrl,
} from './database.js';
export { PreparedStatement } from './prepared.js';
export { onOneConnection, type SessionQuery } from './session.js';
export { pendingMigrations, runMigrations } from './migrator.js';
export { platformMigrations } from './migrations/index.js';
export type { Migration, MigrationContext } from './migration.js';
export { registerModel, type Database } from './models.js';
export { isConnectionLoss, isValueOutOfRange, timedOutWait } from './connection-loss.js';
export {
  boundedConnection,
  type DatabaseTarget,
  sessionBoundsOf,
  defaultDatabaseBounds,
  type SessionBounds,
  type SessionWork,
} from './session-bounds.js';
export { unitOfWork, type UnitOfWork, type UnitOfWorkDatabase, type UnitOfWorkOptions } from './unit-of-work.js';
export { containsPattern } from './like-pattern.js';
export { Binds } from './binds.js';
