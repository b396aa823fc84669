import type { Sequelize, QueryInterface } from 'sequelize';

export interface MigrationContext {
  sequelize: Sequelize;
  queryInterface: QueryInterface;
}

/** One schema change. Migrations are plain SQL files in migrations/, listed in migrations/index.ts. */
export interface Migration {
  name: string;
  up(context: MigrationContext): Promise<void>;
  down?(context: MigrationContext): Promise<void>;
}
