import type pg from 'pg';
import type { Sequelize } from 'sequelize';
import { refusePastDeadline } from '../context/index.js';
import { isConnectionLoss } from './connection-loss.js';
import { statementPoolOf, type StatementPool } from './database.js';

/**
 * Runs `work` on a client of the database's statement pool (pg's own `Pool`, beside Sequelize's, see
 * `createSequelize`) and gives it back: destroyed when its connection was lost under the work, kept
 * otherwise (with the statements it has prepared). While the client is out, an error its connection
 * reports between statements is its next statement's failure, not an unhandled 'error'. Work of a request
 * whose deadline has passed is refused before it takes a client.
 */
export async function withStatementClient<T>(
  sequelize: Sequelize,
  work: (client: pg.PoolClient) => Promise<T>,
  pool: StatementPool = 'reads',
): Promise<T> {
  refusePastDeadline();
  const client = await statementPoolOf(sequelize, pool).connect();
  const ignore = () => undefined;
  client.on('error', ignore);
  let lost: Error | undefined;
  try {
    return await work(client);
  } catch (error) {
    if (isConnectionLoss(error)) lost = error as Error;
    throw error;
  } finally {
    client.off('error', ignore);
    client.release(lost);
  }
}

/**
 * A statement outside any transaction, run as a named prepared statement (pg's `{ name, text, values }`)
 * on a client of the database's statement pool: PostgreSQL parses it once per connection (and plans it
 * once when it keeps a generic plan of it), and the hot paths that use it (the inquiries, a page of stock
 * movements, the bulk job rows, the webhook worker's loads and records) skip Sequelize's parameter
 * rewriting and result formatting. A statement inside a transaction goes through `sequelize.query` with
 * the transaction (ADR 0130).
 */
export class PreparedStatement<Row> {
  constructor(
    readonly name: string,
    readonly text: string,
    /** `handOffs` for a bulk call's hand-over, which must not take the reads' connections. */
    readonly pool: StatementPool = 'reads',
  ) {}

  async rows(sequelize: Sequelize, values: unknown[]): Promise<Row[]> {
    return withStatementClient(
      sequelize,
      async (client) => {
        const result = await client.query<Row & pg.QueryResultRow>({ name: this.name, text: this.text, values });
        return result.rows;
      },
      this.pool,
    );
  }
}
