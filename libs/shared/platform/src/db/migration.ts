import type { Sequelize, QueryInterface } from 'sequelize';

export interface MigrationContext {
  sequelize: Sequelize;
  queryInterface: QueryInterface;
}

/**
 * One schema change. Each library keeps its migrations in its own migrations/ folder; setup lists them all in
 * the order they are applied (libs/shared/setup/src/bootstrap/migrations.ts).
 */
export interface Migration {
  name: string;
  up(context: MigrationContext): Promise<void>;
  down?(context: MigrationContext): Promise<void>;
}
