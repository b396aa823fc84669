import { createServer, type AddressInfo, type Socket } from 'node:net';
import { createTestContext, type TestContext } from '@wms/testing';
import { isConnectionLoss } from './connection-loss.js';
import { connectionBudget, createSequelize, statementPoolOf } from './database.js';
import { onOneConnection } from './session.js';
import { PreparedStatement } from './prepared.js';

describe("the service's PostgreSQL pools", () => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await createTestContext('database-pool');
  });
  afterAll(() => ctx.close());

  it('splits DATABASE_POOL_MAX between Sequelize and the statement pool, never more than the setting in all', () => {
    for (const max of [2, 3, 5, 10, 11, 200]) {
      const { sequelize, statements } = connectionBudget(max);
      expect(sequelize + statements).toBe(max);
      expect(statements).toBeGreaterThanOrEqual(1);
      expect(sequelize).toBeGreaterThanOrEqual(statements);
    }
  });

  it('the statement pool is a pg Pool of its share of the budget, on the same database', async () => {
    const sequelize = createSequelize({ databaseUrl: ctx.config.databaseUrl, databasePoolMax: 6 });
    try {
      const pool = statementPoolOf(sequelize);
      const statement = new PreparedStatement<{ name: string }>(
        'database-spec-name',
        'SELECT current_database() AS name',
      );

      const [row] = await statement.rows(sequelize, []);
      const [sequelizeRow] = await sequelize.query<{ name: string }>('SELECT current_database() AS name', {
        type: 'SELECT' as never,
      });

      expect(pool.options.max).toBe(3);
      expect(row!.name).toBe(sequelizeRow!.name);
    } finally {
      await sequelize.close();
    }
  });

  it('closing the database ends the statement pool too, and closing twice is harmless', async () => {
    const sequelize = createSequelize({ databaseUrl: ctx.config.databaseUrl, databasePoolMax: 2 });
    await onOneConnection(sequelize, (query) => query('SELECT 1'));

    await sequelize.close();
    await sequelize.close();

    expect(statementPoolOf(sequelize).ended).toBe(true);
  });

  it('a session keeps its connection: an advisory lock taken by one statement is held for the next', async () => {
    const held = await onOneConnection(ctx.runtime.db.sequelize, async (query) => {
      await query('SELECT pg_advisory_lock(4242)');
      try {
        const [row] = await query<{ held: number }>(
          "SELECT count(*)::int AS held FROM pg_locks WHERE locktype = 'advisory' AND objid = 4242 AND pid = pg_backend_pid()",
        );
        return row!.held;
      } finally {
        await query('SELECT pg_advisory_unlock(4242)');
      }
    });

    expect(held).toBe(1);
  });

  it('when a statement fails on its own (not its connection), the error is the caller’s and the pool goes on', async () => {
    const failing = new PreparedStatement('database-spec-failing', 'SELECT 1 / $1::int AS quotient');

    await expect(failing.rows(ctx.runtime.db.sequelize, [0])).rejects.toMatchObject({ code: '22012' });
    await expect(failing.rows(ctx.runtime.db.sequelize, [1])).resolves.toEqual([{ quotient: 1 }]);
  });

  it('with a connect timeout (a replica), a server that accepts but never answers fails the statement as a lost connection in that time', async () => {
    const sockets: Socket[] = [];
    const silent = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    const sequelize = createSequelize(
      { databaseUrl: `postgres://postgres@127.0.0.1:${port}/silent`, databasePoolMax: 2 },
      { bounds: { connectTimeoutMs: 200 } },
    );
    try {
      const statement = new PreparedStatement('database-spec-silent', 'SELECT 1');

      const error = await statement.rows(sequelize, []).then(
        () => null,
        (failure: unknown) => failure,
      );

      expect(isConnectionLoss(error)).toBe(true);
    } finally {
      await sequelize.close();
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
