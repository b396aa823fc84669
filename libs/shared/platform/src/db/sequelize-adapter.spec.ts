import { createRequire } from 'node:module';
import { createTestContext, type TestContext } from '@wms/testing';
import { createSequelize } from './database.js';
import { PoolClient, beforeEachStatement } from './sequelize-adapter.js';

/** The version the adapter's internal (`_invalid`, read by Sequelize's pool validation) was checked against. */
const PINNED_SEQUELIZE = '6.37.8';

describe('the Sequelize adapter', () => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await createTestContext('sequelize-adapter');
  });
  afterAll(() => ctx.close());

  it(`is checked against sequelize ${PINNED_SEQUELIZE}: an upgrade re-reads its connection manager first`, () => {
    const installed = (createRequire(import.meta.url)('sequelize/package.json') as { version: string }).version;

    expect(installed).toBe(PINNED_SEQUELIZE);
  });

  it('when a connection reports an error before Sequelize listens for it, the process goes on and the connection is marked unusable', () => {
    // As when PostgreSQL ends a connection in the same read that completes its start-up.
    const client = new PoolClient({ connectionString: ctx.config.databaseUrl });

    expect(() => client.emit('error', new Error('terminating connection due to administrator command'))).not.toThrow();
    expect((client as unknown as { _invalid?: boolean })._invalid).toBe(true);
  });

  it("opens Sequelize's connections with that client", async () => {
    const sequelize = createSequelize({ databaseUrl: ctx.config.databaseUrl, databasePoolMax: 4 });
    const opened: unknown[] = [];
    sequelize.addHook('afterConnect', (connection: unknown) => {
      opened.push(connection);
    });
    try {
      await sequelize.query('SELECT 1');
    } finally {
      await sequelize.close();
    }

    expect(opened.length).toBeGreaterThan(0);
    for (const connection of opened) expect(connection).toBeInstanceOf(PoolClient);
  });

  it("refuses a transaction's statements once the check throws, and still lets its ROLLBACK through", async () => {
    const sequelize = createSequelize({ databaseUrl: ctx.config.databaseUrl, databasePoolMax: 2 });
    let refusing = false;
    beforeEachStatement(sequelize, () => {
      if (refusing) throw new Error('refused');
    });
    try {
      const outcome = sequelize.transaction(async (transaction) => {
        await sequelize.query('CREATE TEMP TABLE adapter_check (n int)', { transaction });
        refusing = true;
        await sequelize.query('INSERT INTO adapter_check VALUES (1)', { transaction });
      });

      await expect(outcome).rejects.toThrow('refused');
      refusing = false;
      // Rolled back, not left open: the connection answers, and the temporary table was never committed.
      const [rows] = await sequelize.query("SELECT to_regclass('pg_temp.adapter_check') AS kept");
      expect(rows).toEqual([{ kept: null }]);
    } finally {
      await sequelize.close();
    }
  });
});
