import { performance } from 'node:perf_hooks';
import { createTestContext, type TestContext } from '@wms/testing';
import { runWithContext } from '../context/index.js';
import { unitOfWork } from './unit-of-work.js';

describe('a unit of work', () => {
  let ctx: TestContext;
  const rows = async (): Promise<string[]> => {
    const [found] = await ctx.runtime.db.sequelize.query('SELECT note FROM unit_of_work_check ORDER BY note');
    return (found as Array<{ note: string }>).map((row) => row.note);
  };
  const write = (note: string) =>
    unitOfWork(ctx.runtime.db, async (transaction) => {
      await ctx.runtime.db.sequelize.query('INSERT INTO unit_of_work_check (note) VALUES ($1)', {
        bind: [note],
        transaction,
      });
      return note;
    });

  beforeAll(async () => {
    ctx = await createTestContext('unit-of-work');
    await ctx.runtime.db.sequelize.query('CREATE TABLE unit_of_work_check (note text NOT NULL)');
  });
  beforeEach(() => ctx.runtime.db.sequelize.query('DELETE FROM unit_of_work_check'));
  afterAll(() => ctx.close());

  it('commits what it wrote when it resolves, and answers its result', async () => {
    await expect(write('kept')).resolves.toBe('kept');

    expect(await rows()).toEqual(['kept']);
  });

  it('rolls back what it wrote when it throws, and throws that error', async () => {
    const failing = unitOfWork(ctx.runtime.db, async (transaction) => {
      await ctx.runtime.db.sequelize.query(`INSERT INTO unit_of_work_check (note) VALUES ('lost')`, { transaction });
      throw new Error('the work failed');
    });

    await expect(failing).rejects.toThrow('the work failed');
    expect(await rows()).toEqual([]);
  });

  it('outside a request (a worker, a sweep, a migration) meets no deadline: it commits', async () => {
    await write('from a job');
    await runWithContext({ requestId: 'job-1', jobId: '1' }, () => write('in a job context'));

    expect(await rows()).toEqual(['from a job', 'in a job context']);
  });

  it('in a request whose deadline passed while it worked, rolls back instead of committing (503 REQUEST_TIMEOUT)', async () => {
    const context = { requestId: 'late', deadlineAt: performance.now() + 60_000 };
    const late = runWithContext(context, () =>
      unitOfWork(ctx.runtime.db, async (transaction) => {
        await ctx.runtime.db.sequelize.query(`INSERT INTO unit_of_work_check (note) VALUES ('late')`, { transaction });
        // The request is answered at its deadline now, after the work's last statement and before its commit.
        context.deadlineAt = performance.now() - 1;
      }),
    );

    await expect(late).rejects.toMatchObject({ status: 503, code: 'REQUEST_TIMEOUT' });
    expect(await rows()).toEqual([]);
  });

  it('as a dry run, answers what the work answered and keeps none of its writes', async () => {
    const tried = unitOfWork(
      ctx.runtime.db,
      async (transaction) => {
        await ctx.runtime.db.sequelize.query(`INSERT INTO unit_of_work_check (note) VALUES ('tried')`, { transaction });
        const [seen] = await ctx.runtime.db.sequelize.query('SELECT count(*)::int AS n FROM unit_of_work_check', {
          transaction,
        });
        return (seen as Array<{ n: number }>)[0]!.n;
      },
      { dryRun: true },
    );

    await expect(tried).resolves.toBe(1);
    expect(await rows()).toEqual([]);
  });

  it('as a dry run that throws, throws that error', async () => {
    const failing = unitOfWork(
      ctx.runtime.db,
      async () => {
        throw new Error('invalid entry');
      },
      { dryRun: true },
    );

    await expect(failing).rejects.toThrow('invalid entry');
  });

  it('with a lock timeout, gives up waiting for a row lock after it (lock_not_available), for its own transaction only', async () => {
    await write('locked');
    const db = ctx.runtime.db;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holder = unitOfWork(db, async (transaction) => {
      await db.sequelize.query(`SELECT note FROM unit_of_work_check WHERE note = 'locked' FOR UPDATE`, { transaction });
      locked();
      await released;
    });
    await isLocked;

    const impatient = unitOfWork(
      db,
      (transaction) =>
        db.sequelize.query(`UPDATE unit_of_work_check SET note = 'taken' WHERE note = 'locked'`, { transaction }),
      { lockTimeoutMs: 50 },
    );
    await expect(impatient).rejects.toMatchObject({ parent: { code: '55P03' } });
    const [settings] = await unitOfWork(db, (transaction) =>
      db.sequelize.query(`SELECT current_setting('lock_timeout') AS "lockTimeout"`, { transaction }),
    );
    release();
    await holder;

    expect((settings as Array<{ lockTimeout: string }>)[0]!.lockTimeout).not.toBe('50ms');
    expect(await rows()).toEqual(['locked']);
  });
});
