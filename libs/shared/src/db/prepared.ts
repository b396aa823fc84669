import type { Sequelize } from 'sequelize';

interface PgClient {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}

interface ConnectionManager {
  getConnection(options?: { type?: 'read' | 'write' }): Promise<PgClient>;
  releaseConnection(connection: PgClient): void;
}

/**
 * A statement outside any transaction, run as a named prepared statement straight on a connection of
 * Sequelize's pool: PostgreSQL parses and plans it once per connection, and hot paths (the inquiries,
 * the webhook worker's loads and records) skip Sequelize's query path (parameter rewriting and escaping,
 * result formatting), which only added cost there. Same pool, same connections, same limits as every
 * other statement of the process.
 */
export class PreparedStatement<Row> {
  constructor(
    readonly name: string,
    readonly text: string,
  ) {}

  async rows(sequelize: Sequelize, values: unknown[]): Promise<Row[]> {
    const manager = sequelize.connectionManager as unknown as ConnectionManager;
    const client = await manager.getConnection();
    try {
      const result = await client.query({ name: this.name, text: this.text, values });
      return result.rows as Row[];
    } finally {
      manager.releaseConnection(client);
    }
  }
}
