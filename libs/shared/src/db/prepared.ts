import { ConnectionAcquireTimeoutError, type Sequelize } from 'sequelize';

interface PgClient {
  query(
    config: { name: string; text: string; values: unknown[] },
    callback: (error: Error | null, result: { rows: unknown[] }) => void,
  ): void;
}

/** Sequelize's connection pool (sequelize-pool): what its connection manager acquires from and releases to. */
interface ConnectionPool {
  acquire(): Promise<PgClient>;
  release(connection: PgClient): void;
}

/**
 * A statement outside any transaction, run as a named prepared statement straight on a connection of
 * Sequelize's pool: PostgreSQL parses and plans it once per connection, and hot paths (the inquiries,
 * the webhook worker's loads and records) skip Sequelize's query path (parameter rewriting and escaping,
 * result formatting), which only added cost there. Same pool, same connections, same limits as every
 * other statement of the process. The connection is taken from the pool itself, not through the
 * connection manager's getConnection, whose pool hooks this project does not use and whose promises
 * cost every inquiry; pg answers through its callback, so one statement costs three promises in all.
 */
export class PreparedStatement<Row> {
  constructor(
    readonly name: string,
    readonly text: string,
  ) {}

  rows(sequelize: Sequelize, values: unknown[]): Promise<Row[]> {
    const pool = (sequelize.connectionManager as unknown as { pool: ConnectionPool }).pool;
    return pool.acquire().then(
      (client) =>
        new Promise<Row[]>((resolve, reject) => {
          client.query({ name: this.name, text: this.text, values }, (error, result) => {
            pool.release(client);
            if (error) reject(error);
            else resolve(result.rows as Row[]);
          });
        }),
      (error: unknown) => {
        // As the connection manager reports it: a pool that stayed exhausted is a connection error.
        throw isAcquireTimeout(error) ? new ConnectionAcquireTimeoutError(error as Error) : error;
      },
    );
  }
}

function isAcquireTimeout(error: unknown): boolean {
  return error instanceof Error && error.constructor.name === 'TimeoutError';
}
