import pg from 'pg';
import type { Sequelize } from 'sequelize';
import type { Logger } from '../logging/index.js';
import type { Migration, MigrationContext } from './migration.js';
import { boundedConnection } from './session-bounds.js';

const MIGRATION_LOCK_ID = 7_410_001;

const MIGRATIONS_TABLE = 'schema_migrations';

/**
 * The names of the migrations of `list` the database has not applied yet, in list order: every one on a
 * database never migrated (or not answering). Empty is the usual start of a replica.
 */
export async function pendingMigrations(sequelize: Sequelize, list: Migration[]): Promise<string[]> {
  // A database not migrated yet has no such table: everything is pending then.
  const [rows] = (await sequelize.query(`SELECT name FROM ${MIGRATIONS_TABLE}`).catch(() => [[]])) as [
    Array<{ name: string }>,
    unknown,
  ];
  const applied = new Set(rows.map((row) => row.name));
  return list.filter((migration) => !applied.has(migration.name)).map((migration) => migration.name);
}

/**
 * Applies every pending migration in list order. A PostgreSQL advisory lock, held on a connection of
 * its own, serialises replicas that start together. A database that is up to date costs one read: the
 * migration runner (umzug and what it brings, about 10 MB of a process' memory) is loaded only when
 * there is something to apply. `list` is every migration in order (setup composes it from the libraries
 * that own them; the platform knows none by name); a shorter one (its first ones) builds a database of an
 * earlier schema.
 */
export async function runMigrations(
  sequelize: Sequelize,
  databaseUrl: string,
  logger: Logger | undefined,
  list: Migration[],
): Promise<string[]> {
  if ((await pendingMigrations(sequelize, list)).length === 0) return [];
  const { Umzug, SequelizeStorage } = await import('umzug');
  const context: MigrationContext = { sequelize, queryInterface: sequelize.getQueryInterface() };
  const umzug = new Umzug({
    migrations: list.map((migration) => ({
      name: migration.name,
      up: () => migration.up(context),
      down: migration.down ? () => migration.down!(context) : undefined,
    })),
    context,
    storage: new SequelizeStorage({ sequelize, tableName: MIGRATIONS_TABLE }),
    logger: undefined,
  });
  // A connection of its own: the session's advisory lock is held across every migration, which run on the pool.
  // It waits for a peer's migrations as long as they run: a peer lost mid-way frees the lock by keepalive.
  const lockClient = new pg.Client(boundedConnection(databaseUrl, {}, 'session'));
  await lockClient.connect();
  try {
    await lockClient.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    const applied = (await umzug.up()).map((entry) => entry.name);
    if (applied.length) logger?.info({ migrations: applied }, 'database migrations applied');
    return applied;
  } finally {
    await lockClient.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => undefined);
    await lockClient.end();
  }
}
