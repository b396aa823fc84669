import pg from 'pg';
import type { Sequelize } from 'sequelize';

/**
 * The one place that knows a Sequelize internal (sequelize 6.37, pinned by `sequelize-adapter.spec.ts`).
 *
 * Sequelize attaches its 'error' listener to a new connection only once connect() has resolved, a microtask
 * later; when PostgreSQL ends a connection in the same read that completes its start-up (pg_terminate_backend
 * of a connection just opened, a failover, a restart), pg emitted the error with no listener, which throws
 * and ended the whole process. Sequelize offers no hook that runs before connect() resolves, so its pool's
 * clients are born listening: the listener marks the connection as Sequelize's own does (`_invalid`, which
 * its pool's validate reads), so the pool never hands it out again.
 */
export class PoolClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super(config);
    this.on('error', () => {
      (this as { _invalid?: boolean })._invalid = true;
    });
  }
}

/**
 * Runs `check` before each statement Sequelize sends but a transaction's own COMMIT and ROLLBACK (which
 * Sequelize marks `completesTransaction`, an internal option of its query): a check that throws fails the
 * statement, and a transaction's statement failing rolls it back, which must still be let through.
 */
export function beforeEachStatement(sequelize: Sequelize, check: () => void): void {
  sequelize.addHook('beforeQuery', (options) => {
    if (!(options as { completesTransaction?: boolean }).completesTransaction) check();
  });
}

/**
 * The pg module as Sequelize sees it (its documented `dialectModule` option), with `Client` (a subclass of
 * the client above) for its connections.
 */
export function pgForSequelize(Client: typeof pg.Client): typeof pg {
  return Object.create(pg, { Client: { value: Client } }) as typeof pg;
}
