import { createTestContext, type TestContext } from '@wms/testing';
import { PoolClient } from './database.js';

describe("the service's PostgreSQL pool", () => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await createTestContext('database-pool');
  });
  afterAll(() => ctx.close());

  it('when a connection reports an error before Sequelize listens for it, the process goes on and the connection is marked unusable', () => {
    // As when PostgreSQL ends a connection in the same read that completes its start-up.
    const client = new PoolClient({ connectionString: ctx.config.databaseUrl });

    expect(() => client.emit('error', new Error('terminating connection due to administrator command'))).not.toThrow();
    expect((client as unknown as { _invalid?: boolean })._invalid).toBe(true);
  });

  it("opens the service's connections with that client", async () => {
    const manager = ctx.runtime.db.sequelize.connectionManager;
    const connection = await manager.getConnection({ type: 'read' });
    try {
      expect(connection).toBeInstanceOf(PoolClient);
    } finally {
      manager.releaseConnection(connection);
    }
  });
});
