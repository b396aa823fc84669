import type pg from 'pg';
import type { Sequelize } from 'sequelize';

/**
 * A statement outside any transaction, run as a named prepared statement (pg's `{ name, text, values }`)
 * on a connection of Sequelize's pool: PostgreSQL parses and plans it once per connection, and the hot
 * paths that use it (the inquiries, the bulk job rows, the webhook worker's loads and records) skip
 * Sequelize's parameter rewriting and result formatting. The connection is borrowed and given back through
 * Sequelize's connection manager, so it is the same pool with the same limits as every other statement of
 * the process, and a pool that stays exhausted fails with Sequelize's own ConnectionAcquireTimeoutError.
 * Repositories use it; a statement inside a transaction goes through `sequelize.query` with the transaction.
 */
export class PreparedStatement<Row> {
  constructor(
    readonly name: string,
    readonly text: string,
  ) {}

  async rows(sequelize: Sequelize, values: unknown[]): Promise<Row[]> {
    const manager = sequelize.connectionManager;
    // The postgres dialect's connections are pg clients.
    const client = (await manager.getConnection({ type: 'write' })) as pg.ClientBase;
    try {
      const result = await client.query<Row & pg.QueryResultRow>({ name: this.name, text: this.text, values });
      return result.rows;
    } finally {
      await manager.releaseConnection(client);
    }
  }
}
