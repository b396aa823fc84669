import pg from 'pg';
import { Umzug, SequelizeStorage } from 'umzug';
import type { Sequelize } from 'sequelize';
import type { Logger } from '../logging/index.js';
import type { MigrationContext } from './migration.js';
import { migrations } from './migrations/index.js';

const MIGRATION_LOCK_ID = 7_410_001;

/**
 * Applies every pending migration in list order. A PostgreSQL advisory lock, held on a connection of
 * its own, serialises replicas that start together.
 */
export async function runMigrations(sequelize: Sequelize, databaseUrl: string, logger?: Logger): Promise<string[]> {
  const context: MigrationContext = { sequelize, queryInterface: sequelize.getQueryInterface() };
  const umzug = new Umzug({
    migrations: migrations.map((migration) => ({
      name: migration.name,
      up: () => migration.up(context),
      down: migration.down ? () => migration.down!(context) : undefined,
    })),
    context,
    storage: new SequelizeStorage({ sequelize, tableName: 'schema_migrations' }),
    logger: undefined,
  });
  const lockClient = new pg.Client({ connectionString: databaseUrl });
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
