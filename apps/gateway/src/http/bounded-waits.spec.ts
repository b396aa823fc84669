import { performance } from 'node:perf_hooks';
import { QueryTypes } from 'sequelize';
import { unitOfWork } from '@wms/platform';
import {
  arrangeStockItem,
  createTestContext,
  request,
  startTcpProxy,
  waitFor,
  type StockItem,
  type TcpProxy,
  type TestContext,
  type TestGateway,
} from '@wms/testing';

const BASE = '/api/v1/integration/v1';
const REQUEST_TIMEOUT_MS = 4_000;
const LOCK_TIMEOUT_MS = 1_000;
const IDLE_IN_TRANSACTION_TIMEOUT_MS = 3_000;
/** The gateways' bounds, short so that the specs wait seconds; their defaults are larger but ordered alike. */
const BOUNDS = {
  REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
  DATABASE_STATEMENT_TIMEOUT_MS: '1500',
  DATABASE_ACQUIRE_TIMEOUT_MS: '1000',
  DATABASE_CONNECT_TIMEOUT_MS: '1000',
  DATABASE_LOCK_TIMEOUT_MS: String(LOCK_TIMEOUT_MS),
  DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: String(IDLE_IN_TRANSACTION_TIMEOUT_MS),
};
/** What a timer may run late by on a busy machine: the answer is due by the deadline, give or take this. */
const TIMER_SLACK_MS = 1_500;

describe('bounded waits: a gateway answers by its deadline whatever its database does', () => {
  let ctx: TestContext;
  let proxy: TcpProxy;
  /** Reaches PostgreSQL through the proxy, whose link the specs cut. */
  let cutOff: TestGateway;
  /** Reaches PostgreSQL directly. */
  let healthy: TestGateway;
  let item: StockItem;

  beforeAll(async () => {
    ctx = await createTestContext('bounded-waits');
    const database = new URL(ctx.config.databaseUrl);
    proxy = await startTcpProxy({ host: database.hostname, port: Number(database.port || 5432) });
    cutOff = await ctx.startGateway({ ...BOUNDS, DATABASE_URL: proxy.urlFor(ctx.config.databaseUrl) });
    healthy = await ctx.startGateway(BOUNDS);
    item = await arrangeStockItem(ctx, healthy.url, 'HELD');
  }, 60_000);
  afterEach(() => proxy.heal());
  afterAll(async () => {
    await ctx?.close();
    await proxy?.close();
  });

  const inquire = (gateway: TestGateway) => item.inquire(gateway.url);
  const adjust = (gateway: TestGateway, qtyDelta: number, headers: Record<string, string> = {}) =>
    item.adjust(gateway.url, qtyDelta, headers);
  const onHand = () => item.onHand();
  const timed = async <T>(work: () => Promise<T>) => {
    const started = performance.now();
    const answer = await work();
    return { answer, elapsedMs: performance.now() - started };
  };

  it('when its link to PostgreSQL is cut, an inquiry and a write answer 503 with Retry-After within the deadline, and it answers again once the link heals', async () => {
    // Arrange: the cut-off gateway's key is cached and its pools hold connections through the proxy.
    expect((await inquire(cutOff)).status).toBe(200);
    expect((await adjust(cutOff, 5)).status).toBe(201);
    proxy.cut();

    // Act
    const [read, write] = await Promise.all([timed(() => inquire(cutOff)), timed(() => adjust(cutOff, 1))]);

    // Assert
    for (const { answer, elapsedMs } of [read, write]) {
      expect(answer.status).toBe(503);
      expect(answer.headers.get('retry-after')).toBe('1');
      expect(elapsedMs).toBeLessThan(REQUEST_TIMEOUT_MS + TIMER_SLACK_MS);
    }
    proxy.heal();
    await waitFor(
      async () => (await inquire(cutOff)).status,
      (status) => status === 200,
      15_000,
      'the healed gateway to answer',
    );
  }, 30_000);

  it('when a gateway is cut off holding a row lock mid-transaction, a writer elsewhere gets 503 LOCK_TIMEOUT instead of hanging, and PostgreSQL frees the lock within the idle-in-transaction timeout', async () => {
    // Arrange: a transaction of the cut-off gateway locks the stock row, then loses its link.
    expect((await adjust(healthy, 10)).status).toBe(201);
    const db = cutOff.runtime.db;
    let backend = 0;
    let locked!: () => void;
    const holding = new Promise<void>((resolve) => (locked = resolve));
    const inFlight = unitOfWork(db, async (transaction) => {
      const [row] = await db.sequelize.query<{ pid: number }>(
        `SELECT pg_backend_pid() AS pid FROM stock_rows s JOIN items i ON i.id = s.item_id
          WHERE i.sku = 'HELD' FOR UPDATE OF s`,
        { type: QueryTypes.SELECT, transaction },
      );
      backend = row!.pid;
      locked();
      await new Promise((resolve) => setTimeout(resolve, 100));
      await db.sequelize.query('SELECT 1', { transaction });
    }).catch((error: unknown) => error);
    await holding;
    proxy.cut();
    const cutAt = performance.now();

    // Act
    const blocked = await adjust(healthy, 1);

    // Assert
    expect(blocked.status).toBe(503);
    expect(blocked.headers.get('retry-after')).toBe('1');
    expect(blocked.body).toMatchObject({ code: 'LOCK_TIMEOUT' });
    await waitFor(
      async () => {
        const [row] = await ctx.runtime.db.sequelize.query<{ alive: number }>(
          'SELECT count(*)::int AS alive FROM pg_stat_activity WHERE pid = $1',
          { bind: [backend], type: QueryTypes.SELECT },
        );
        return row!.alive === 0;
      },
      IDLE_IN_TRANSACTION_TIMEOUT_MS + TIMER_SLACK_MS,
      'PostgreSQL to end the session that lost its peer',
    );
    expect(performance.now() - cutAt).toBeLessThan(IDLE_IN_TRANSACTION_TIMEOUT_MS + 2 * TIMER_SLACK_MS);
    expect((await adjust(healthy, 1)).status).toBe(201);
    expect(await inFlight).toBeInstanceOf(Error);
  }, 30_000);

  it('a write still waiting at its deadline is answered 503 REQUEST_TIMEOUT and rolled back, and its Idempotency-Key given back for the retry', async () => {
    // Arrange: a gateway whose deadline comes before its lock timeout, and a row locked past that deadline.
    const hurried = await ctx.startGateway({
      ...BOUNDS,
      REQUEST_TIMEOUT_MS: '1500',
      DATABASE_LOCK_TIMEOUT_MS: '20000',
    });
    expect((await adjust(healthy, 10)).status).toBe(201);
    const before = await onHand();
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const holding = new Promise<void>((resolve) => (locked = resolve));
    const lock = ctx.runtime.db.sequelize.transaction(async (transaction) => {
      await ctx.runtime.db.sequelize.query(
        `SELECT 1 FROM stock_rows s JOIN items i ON i.id = s.item_id WHERE i.sku = 'HELD' FOR UPDATE OF s`,
        { transaction },
      );
      locked();
      await released;
    });
    await holding;

    // Act
    const idempotencyKey = { 'idempotency-key': 'late-adjustment' };
    const late = await adjust(hurried, 7, idempotencyKey);
    release();
    await lock;
    // Queued behind the abandoned write for the row, so it ends after that write's transaction did.
    const next = await adjust(healthy, 1);

    // Assert
    expect(late.status).toBe(503);
    expect(late.headers.get('retry-after')).toBe('1');
    expect(late.body).toMatchObject({ code: 'REQUEST_TIMEOUT' });
    expect(next.status).toBe(201);
    expect(await onHand()).toBe(before + 1);
    const retried = await adjust(hurried, 7, idempotencyKey);
    expect(retried.status).toBe(201);
    expect(await onHand()).toBe(before + 8);
  }, 30_000);

  it('while bulk hand-offs hold every connection of their pool, inquiries keep answering', async () => {
    // Arrange: a gateway whose bulk calls wait on a table lock, longer than the spec takes.
    const HAND_OFFS = 2;
    const busy = await ctx.startGateway({
      ...BOUNDS,
      DATABASE_POOL_MAX: '4',
      DATABASE_BULK_POOL_MAX: String(HAND_OFFS),
      DATABASE_LOCK_TIMEOUT_MS: '15000',
      DATABASE_STATEMENT_TIMEOUT_MS: '20000',
      DATABASE_ACQUIRE_TIMEOUT_MS: '15000',
      REQUEST_TIMEOUT_MS: '30000',
      BULK_SYNC_TIMEOUT_MS: '0',
    });
    expect((await inquire(busy)).status).toBe(200);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const holding = new Promise<void>((resolve) => (locked = resolve));
    const lock = ctx.runtime.db.sequelize.transaction(async (transaction) => {
      await ctx.runtime.db.sequelize.query('LOCK TABLE bulk_jobs IN EXCLUSIVE MODE', { transaction });
      locked();
      await released;
    });
    await holding;
    let settled = 0;
    const bulkCalls = Array.from({ length: HAND_OFFS + 3 }, (_, n) =>
      request(busy.url, 'POST', `${BASE}/items/bulk`, {
        headers: { 'x-api-key': item.key },
        body: { items: [{ sku: `BULK-${n}`, name: 'handed over', baseUomCode: 'EA' }] },
      }).finally(() => (settled += 1)),
    );
    try {
      await waitFor(
        async () => {
          const [row] = await ctx.runtime.db.sequelize.query<{ waiting: number }>(
            `SELECT count(*)::int AS waiting FROM pg_stat_activity
              WHERE wait_event_type = 'Lock' AND query LIKE 'INSERT INTO bulk_jobs%'`,
            { type: QueryTypes.SELECT },
          );
          return row!.waiting === HAND_OFFS;
        },
        15_000,
        'the bulk hand-offs to hold every connection of their pool',
      );

      // Act
      const inquiries = await Promise.all(Array.from({ length: 5 }, () => inquire(busy)));

      // Assert
      expect(inquiries.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
      expect(settled).toBe(0);
    } finally {
      release();
      await lock;
    }
    const answers = await Promise.all(bulkCalls);
    expect(answers.map((answer) => answer.status)).toEqual(bulkCalls.map(() => 202));
  }, 60_000);
});
