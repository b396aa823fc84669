import type { Sequelize } from 'sequelize';

/** One connection's statements, in order: what session state (an advisory lock) needs. */
export type SessionQuery = <Row = Record<string, unknown>>(text: string, values?: unknown[]) => Promise<Row[]>;

interface PgClient {
  query(text: string, values: unknown[] | undefined, callback: (error: Error | null, result: unknown) => void): void;
}

interface ConnectionPool {
  acquire(): Promise<PgClient>;
  release(connection: PgClient): void;
}

/**
 * Runs `work` on one connection of Sequelize's pool, outside any transaction, and gives the connection back:
 * for work that holds a session-level advisory lock, or runs statements PostgreSQL refuses inside a
 * transaction block (DETACH PARTITION … CONCURRENTLY).
 */
export async function onOneConnection<T>(sequelize: Sequelize, work: (query: SessionQuery) => Promise<T>): Promise<T> {
  const pool = (sequelize.connectionManager as unknown as { pool: ConnectionPool }).pool;
  const client = await pool.acquire();
  const query: SessionQuery = <Row>(text: string, values?: unknown[]) =>
    new Promise<Row[]>((resolve, reject) => {
      client.query(text, values, (error, result) => {
        if (error) reject(error);
        // A text of several statements answers one result per statement; the last one's rows are kept.
        else resolve((Array.isArray(result) ? result.at(-1) : result).rows as Row[]);
      });
    });
  try {
    return await work(query);
  } finally {
    pool.release(client);
  }
}
