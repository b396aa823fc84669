import type { Sequelize } from 'sequelize';
import { withStatementClient } from './prepared.js';

/** One connection's statements, in order: what session state (an advisory lock) needs. */
export type SessionQuery = <Row = Record<string, unknown>>(text: string, values?: unknown[]) => Promise<Row[]>;

/**
 * Runs `work` on one connection of the database's statement pool, outside any transaction, and gives the
 * connection back: for work that holds a session-level advisory lock, or runs statements PostgreSQL refuses
 * inside a transaction block (DETACH PARTITION … CONCURRENTLY).
 */
export function onOneConnection<T>(sequelize: Sequelize, work: (query: SessionQuery) => Promise<T>): Promise<T> {
  return withStatementClient(sequelize, (client) => {
    const query: SessionQuery = async <Row>(text: string, values?: unknown[]) => {
      const result: unknown = await client.query(text, values);
      // A text of several statements answers one result per statement; the last one's rows are kept.
      const last = (Array.isArray(result) ? result.at(-1) : result) as { rows: Row[] };
      return last.rows;
    };
    return work(query);
  });
}
