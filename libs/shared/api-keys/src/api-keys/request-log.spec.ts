import { createApiKey, createTestContext, type TestContext } from '@wms/testing';
import { RequestLogMaintenance, utcDay } from './request-log-maintenance.js';
import { ApiKeyRequestLog } from './request-log.js';
import { partitionNameOf, type OutcomeCount, type RequestLogEntry } from './request-log.repository.js';

const DAY = 86_400_000;

describe('API-key request log', () => {
  let ctx: TestContext;
  let log: ApiKeyRequestLog;

  beforeAll(async () => {
    ctx = await createTestContext('request-log');
    log = new ApiKeyRequestLog(ctx.services.apiKeys.repository, ctx.runtime.logger);
  });
  afterAll(async () => {
    await log.close();
    await ctx.close();
  });

  const entry = (apiKeyId: string, createdAt = new Date(), statusCode = 200): RequestLogEntry => ({
    apiKeyId,
    endpoint: '/api/v1/integration/v1/items',
    method: 'POST',
    ip: '2001:db8::1',
    origin: null,
    statusCode,
    responseTimeMs: 3.5,
    createdAt,
  });

  const query = async <Row>(sql: string, replacements: Record<string, unknown>) => {
    const [rows] = (await ctx.runtime.db.sequelize.query(sql, { replacements })) as [Row[], unknown];
    return rows;
  };
  const count = async (apiKeyId: string) =>
    (
      await query<{ n: number }>('SELECT count(*)::int AS n FROM api_key_request_logs WHERE api_key_id = :apiKeyId', {
        apiKeyId,
      })
    )[0]!.n;
  const partitions = async () =>
    (
      await query<{ name: string }>(
        `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
          WHERE i.inhparent = 'api_key_request_logs'::regclass`,
        {},
      )
    ).map((row) => row.name);

  it('when records are buffered, nothing is written until a flush, which writes them all at once', async () => {
    const { id } = await createApiKey(ctx);
    for (let i = 0; i < 25; i++) log.record(entry(id));
    const before = await count(id);

    await log.flush();

    expect(before).toBe(0);
    expect(await count(id)).toBe(25);
  });

  it('when a key is used again within a minute, lastUsedAt is not written again', async () => {
    const { id } = await createApiKey(ctx);
    log.record(entry(id, new Date(Date.now() - 5_000)));
    await log.flush();
    const first = await ctx.services.apiKeys.repository.findById(id);

    log.record(entry(id));
    await log.flush();
    const second = await ctx.services.apiKeys.repository.findById(id);

    expect(first!.lastUsedAt).not.toBeNull();
    expect(second!.lastUsedAt!.getTime()).toBe(first!.lastUsedAt!.getTime());
  });

  const rollup = async (apiKeyId: string) =>
    query<{ hour: Date; requests: number; rateLimited: number; refused: number }>(
      `SELECT hour, requests, rate_limited AS "rateLimited", refused FROM api_key_request_rollups
        WHERE api_key_id = :apiKeyId ORDER BY hour`,
      { apiKeyId },
    );

  it('when refused calls are counted, a flush adds them to the rollup of their hour and writes no log row', async () => {
    const { id } = await createApiKey(ctx);
    const hour = Math.floor(Date.now() / 3_600_000) * 3_600_000;
    for (let i = 0; i < 40; i++) log.countRefused(id, 'rateLimited', new Date(hour + 1_000));
    log.countRefused(id, 'refused', new Date(hour + 2_000));
    log.countRefused(id, 'rateLimited', new Date(hour - 1_000));
    log.record(entry(id, new Date(hour + 3_000)));

    await log.flush();
    log.countRefused(id, 'rateLimited', new Date(hour + 4_000));
    await log.flush();

    expect(await rollup(id)).toEqual([
      { hour: new Date(hour - 3_600_000), requests: 0, rateLimited: 1, refused: 0 },
      { hour: new Date(hour), requests: 1, rateLimited: 41, refused: 1 },
    ]);
    expect(await count(id)).toBe(1);
  });

  it('when the counts cannot be written, they are kept and added at the next flush that can', async () => {
    const { id } = await createApiKey(ctx);
    const repository = ctx.services.apiKeys.repository;
    let refuse = true;
    const failingOnce = new ApiKeyRequestLog(
      {
        touchLastUsed: (usage) => repository.touchLastUsed(usage),
        requestLogs: Object.assign(Object.create(repository.requestLogs) as typeof repository.requestLogs, {
          addOutcomes: (counts: OutcomeCount[]) =>
            refuse ? Promise.reject(new Error('database away')) : repository.requestLogs.addOutcomes(counts),
        }),
      },
      ctx.runtime.logger,
    );
    try {
      for (let i = 0; i < 3; i++) failingOnce.countRefused(id, 'rateLimited');
      await failingOnce.flush();
      const whileAway = await rollup(id);

      refuse = false;
      failingOnce.countRefused(id, 'rateLimited');
      await failingOnce.flush();

      expect(whileAway).toEqual([]);
      expect((await rollup(id)).map((row) => row.rateLimited)).toEqual([4]);
    } finally {
      await failingOnce.close();
    }
  });

  it('when a request is logged at 23:59:59.9 and the next at 00:00:00.1, each lands in its own day and both count', async () => {
    const { id } = await createApiKey(ctx);
    const midnight = utcDay(new Date()).getTime();
    const late = new Date(midnight - 100);
    const early = new Date(midnight + 100);
    log.record(entry(id, late, 500));
    log.record(entry(id, early));

    await log.flush();

    const rows = await query<{ partition: string; createdAt: Date }>(
      `SELECT tableoid::regclass::text AS partition, created_at AS "createdAt" FROM api_key_request_logs
        WHERE api_key_id = :id ORDER BY created_at`,
      { id },
    );
    expect(rows.map((row) => row.partition)).toEqual([
      partitionNameOf(new Date(midnight - DAY)),
      partitionNameOf(new Date(midnight)),
    ]);
    expect(rows.map((row) => new Date(row.createdAt).getTime())).toEqual([late.getTime(), early.getTime()]);
    const stats = await ctx.services.apiKeys.stats(id, { userId: null, tenantId: null });
    expect(stats).toMatchObject({ requests7d: 2, errorRate: 0.5 });
    expect(stats.daily.slice(-2).map((point) => point.requests)).toEqual([1, 1]);
    expect(stats.recentRequests.map((request) => request.statusCode)).toEqual([200, 500]);
  });

  it('when a record is of a day without a partition, the partition is made and the record written', async () => {
    const { id } = await createApiKey(ctx);
    const old = new Date(Date.now() - 20 * DAY);
    const name = partitionNameOf(utcDay(old));
    const before = await partitions();

    log.record(entry(id, old));
    await log.flush();

    expect(before).not.toContain(name);
    expect(await partitions()).toContain(name);
    expect(await count(id)).toBe(1);
  });

  it('when a day is older than the retention, its partition is dropped whole; the rollups and other days stay', async () => {
    const { id } = await createApiKey(ctx);
    const expired = new Date(Date.now() - 95 * DAY);
    const kept = new Date(Date.now() - 89 * DAY);
    log.record(entry(id, expired));
    log.record(entry(id, kept));
    log.record(entry(id));
    await log.flush();
    const maintenance = new RequestLogMaintenance(ctx.services.apiKeys.repository.requestLogs, ctx.runtime.logger, {
      retentionDays: 90,
      rollupRetentionDays: 400,
      daysAhead: 3,
    });

    const result = await maintenance.run();

    expect(result!.dropped).toContain(partitionNameOf(utcDay(expired)));
    // A day that is over has its index rebuilt once; it is still read as before.
    expect(result!.settled).toContain(partitionNameOf(utcDay(kept)));
    expect((await maintenance.run())!.settled).toEqual([]);
    expect(await partitions()).not.toContain(partitionNameOf(utcDay(expired)));
    expect(await count(id)).toBe(2);
    const rollups = await query<{ requests: number }>(
      'SELECT sum(requests)::int AS requests FROM api_key_request_rollups WHERE api_key_id = :id',
      { id },
    );
    expect(rollups[0]!.requests).toBe(3);
  });

  it('when maintenance runs, the coming days have partitions; while another process holds the lock it skips its turn', async () => {
    const repository = ctx.services.apiKeys.repository.requestLogs;
    const maintenance = new RequestLogMaintenance(repository, ctx.runtime.logger, {
      retentionDays: 90,
      rollupRetentionDays: 400,
      daysAhead: 10,
    });

    const skipped = await repository.withPartitionLock(true, () => maintenance.run());
    const result = await maintenance.run();

    expect(skipped).toBeNull();
    expect(result).not.toBeNull();
    const names = await partitions();
    for (let ahead = -1; ahead <= 10; ahead++)
      expect(names).toContain(partitionNameOf(new Date(utcDay(new Date()).getTime() + ahead * DAY)));
  });
});
