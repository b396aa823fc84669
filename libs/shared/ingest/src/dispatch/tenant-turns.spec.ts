import { Queue, Worker } from 'bullmq';
import { QueryTypes } from 'sequelize';
import { closeRedis, createRedis, queuePrefix } from '@wms/platform';
import { createTestContext, waitFor, type TestContext } from '@wms/testing';
import { nextTurnSql, turnPriority, type TurnUnits } from './tenant-turns.js';

/** Units of a scratch table, queued through the helper as bulk jobs and import chunks are. */
const UNITS: TurnUnits = { from: 'turn_units', queued: 'NOT done', tenant: 'tenant', turn: 'turn' };

describe('tenant turns', () => {
  let ctx: TestContext;
  let queue: Queue<{ tenant: string }>;
  let worker: Worker<{ tenant: string }> | undefined;
  let connection: ReturnType<typeof createRedis> | undefined;

  beforeAll(async () => {
    ctx = await createTestContext('tenant-turns');
    await ctx.runtime.db.sequelize.query(
      'CREATE TABLE turn_units (id text PRIMARY KEY, tenant text NOT NULL, turn int NOT NULL, done boolean NOT NULL DEFAULT false)',
    );
  });
  afterEach(async () => {
    await worker?.close();
    worker = undefined;
    if (connection) await closeRedis(connection);
    connection = undefined;
    await queue?.obliterate({ force: true });
    await queue?.close();
    await ctx.runtime.db.sequelize.query('TRUNCATE turn_units');
  });
  afterAll(async () => {
    await ctx.close();
  });

  /** Queues a unit of the tenant at its next turn, as a job whose priority is that turn's. */
  async function enqueue(id: string, tenant: string): Promise<number> {
    const [row] = await ctx.runtime.db.sequelize.query<{ turn: number }>(
      `INSERT INTO turn_units (id, tenant, turn) VALUES ($1, $2, ${nextTurnSql(UNITS, '$2')}) RETURNING turn`,
      { bind: [id, tenant], type: QueryTypes.SELECT },
    );
    await queue.add('unit', { tenant }, { jobId: id, priority: turnPriority(row!.turn) });
    return row!.turn;
  }

  /** Runs every queued job one at a time and answers the ids in the order they ran. */
  async function runInOrder(count: number): Promise<string[]> {
    const order: string[] = [];
    connection = createRedis(ctx.config, 'worker', 'tenant-turns-spec');
    worker = new Worker<{ tenant: string }>(
      queue.name,
      async (job) => {
        order.push(job.id!);
        await ctx.runtime.db.sequelize.query('UPDATE turn_units SET done = true WHERE id = $1', { bind: [job.id] });
      },
      { connection, prefix: queuePrefix(ctx.config) },
    );
    await waitFor(
      async () => order.length,
      (ran) => ran === count,
      30_000,
      'every unit to run',
    );
    return order;
  }

  function openQueue(name: string): void {
    queue = new Queue(name, { connection: ctx.runtime.redis, prefix: queuePrefix(ctx.config) });
  }

  it("when tenant A has queued 100 units and tenant B then queues one, B's runs second, right after A's first", async () => {
    openQueue('turns-one');
    for (let index = 0; index < 100; index += 1) await enqueue(`A-${index}`, 'A');
    await enqueue('B-0', 'B');

    const order = await runInOrder(101);

    expect(order.indexOf('B-0')).toBe(1);
    expect(order.filter((id) => id.startsWith('A-'))).toEqual(Array.from({ length: 100 }, (_, index) => `A-${index}`));
  });

  it("when B queues three units behind A's 100, the two tenants alternate until B's are done", async () => {
    openQueue('turns-three');
    for (let index = 0; index < 100; index += 1) await enqueue(`A-${index}`, 'A');
    for (let index = 0; index < 3; index += 1) await enqueue(`B-${index}`, 'B');

    const order = await runInOrder(103);

    expect(order.slice(0, 6)).toEqual(['A-0', 'B-0', 'A-1', 'B-1', 'A-2', 'B-2']);
  });

  it("when a tenant comes to a lane whose head has moved on, it takes the head's turn, not the first", async () => {
    openQueue('turns-late');
    for (let index = 0; index < 5; index += 1) await enqueue(`A-${index}`, 'A');
    await ctx.runtime.db.sequelize.query(`UPDATE turn_units SET done = true WHERE id IN ('A-0', 'A-1', 'A-2')`);

    expect(await enqueue('B-0', 'B')).toBe(4);
    expect(await enqueue('C-0', 'C')).toBe(4);
    expect(await enqueue('B-1', 'B')).toBe(5);
  });

  it('orders the first band before the second, turns within a band, and keeps a turn past its band at its last priority', () => {
    const first = [1, 2, 3, 1_000, 2 ** 20 - 1, 2 ** 20].map((turn) => turnPriority(turn, 'first'));
    const second = [1, 2, 3, 1_000, 2 ** 20].map((turn) => turnPriority(turn, 'second'));

    expect(first[0]).toBe(0);
    expect([...first].sort((a, b) => a - b)).toEqual(first);
    expect([...second].sort((a, b) => a - b)).toEqual(second);
    expect(Math.max(...first)).toBeLessThan(Math.min(...second));
    expect(turnPriority(10 ** 9, 'first')).toBe(turnPriority(2 ** 20, 'first'));
    expect(turnPriority(10 ** 9, 'second')).toBe(2 ** 21 - 1);
  });
});
