import net from 'node:net';
import pg from 'pg';
import { createTestContext, type TestContext } from '@wms/testing';
import { isConnectionLoss, timedOutWait } from './connection-loss.js';

describe('connection loss, as PostgreSQL, pg and the socket report it', () => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await createTestContext('connection-loss');
  });
  afterAll(() => ctx.close());

  const failureOf = async (work: () => Promise<unknown>): Promise<unknown> => {
    try {
      await work();
    } catch (error) {
      return error;
    }
    throw new Error('the work did not fail');
  };

  it('when a statement runs on a client whose connection was closed, it counts as connection loss', async () => {
    const client = new pg.Client({ connectionString: ctx.config.databaseUrl });
    await client.connect();
    await client.end();

    const error = await failureOf(() => client.query('SELECT 1'));

    expect(isConnectionLoss(error)).toBe(true);
  });

  it('when the server terminates the connection under a statement, it counts as connection loss', async () => {
    const client = new pg.Client({ connectionString: ctx.config.databaseUrl });
    await client.connect();
    client.on('error', () => undefined);

    const error = await failureOf(() => client.query('SELECT pg_terminate_backend(pg_backend_pid())'));

    expect(isConnectionLoss(error)).toBe(true);
    await client.end().catch(() => undefined);
  });

  it('when the socket was reset or broken under a write, it counts as connection loss', () => {
    for (const code of ['ECONNRESET', 'EPIPE']) {
      const error = Object.assign(new Error(`write ${code}`), { code });
      expect(isConnectionLoss(error)).toBe(true);
    }
  });

  it("when the peer resets the socket under a read, Node's own error counts as connection loss", async () => {
    // Made by Node's core, not by this module's realm: under jest its `Error` is another realm's.
    const server = net.createServer((socket) => socket.resetAndDestroy());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    const socket = net.connect(port, '127.0.0.1');
    socket.on('connect', () => socket.write('x'));
    const error = await new Promise<unknown>((resolve) => socket.on('error', resolve));
    server.close();

    expect((error as { code?: unknown }).code).toBe('ECONNRESET');
    expect(isConnectionLoss(error)).toBe(true);
  });

  it('when a statement itself is wrong, it is not connection loss', async () => {
    const error = await failureOf(() => ctx.runtime.db.sequelize.query('SELECT * FROM no_such_table'));

    expect(isConnectionLoss(error)).toBe(false);
    expect(isConnectionLoss(new Error('something else'))).toBe(false);
  });
  describe('a wait PostgreSQL or pg gave up on', () => {
    const clients: pg.Client[] = [];
    const connected = async (settings: pg.ClientConfig) => {
      const client = new pg.Client({ connectionString: ctx.config.databaseUrl, ...settings });
      client.on('error', () => undefined);
      await client.connect();
      clients.push(client);
      return client;
    };
    afterAll(async () => {
      await Promise.allSettled(clients.map((client) => client.end()));
    });

    it('when a statement outlasts statement_timeout, it is a statement timeout, not connection loss', async () => {
      const client = await connected({ statement_timeout: 50 });

      const error = await failureOf(() => client.query('SELECT pg_sleep(5)'));

      expect(timedOutWait(error)).toBe('statement');
      expect(isConnectionLoss(error)).toBe(false);
    });

    it('when a lock is not granted within lock_timeout, it is a lock timeout', async () => {
      const holder = await connected({});
      const waiter = await connected({ lock_timeout: 50 });
      await holder.query('SELECT pg_advisory_lock(5252)');

      const error = await failureOf(() => waiter.query('SELECT pg_advisory_lock(5252)'));

      expect(timedOutWait(error)).toBe('lock');
      expect(isConnectionLoss(error)).toBe(false);
    });

    it('when no answer comes within pg’s query_timeout, it counts as connection loss (the link is taken as cut)', async () => {
      const client = await connected({ query_timeout: 100 });

      const error = await failureOf(() => client.query('SELECT pg_sleep(5)'));

      expect(isConnectionLoss(error)).toBe(true);
      expect(timedOutWait(error)).toBeNull();
    });

    it('when a transaction idles past idle_in_transaction_session_timeout, its session ends as a lost connection', async () => {
      const client = await connected({ idle_in_transaction_session_timeout: 100 });
      const ended = new Promise<void>((resolve) => client.once('end', () => resolve()));
      await client.query('BEGIN');
      await ended;

      const error = await failureOf(() => client.query('SELECT 1'));

      expect(isConnectionLoss(error)).toBe(true);
    });
  });
});
