import { createTestContext, type TestContext } from '@wms/testing';
import { createSequelize, describeDatabaseUrl, type Database } from '../db/index.js';
import { checkReadiness } from '../health/index.js';
import { KeySpaceClaim, KeySpaceTaken, claimKey } from './key-space-claim.js';

describe('the Redis key space claim', () => {
  let ctx: TestContext;
  /** Another deployment's database: the server's maintenance database, never this file's. */
  let other: Database;
  let prefix: string;

  const claimOf = (db: Database) => new KeySpaceClaim(db, ctx.runtime.redis, prefix);

  beforeAll(async () => {
    ctx = await createTestContext('key-space');
    prefix = ctx.config.redisKeyPrefix;
    other = {
      sequelize: createSequelize({
        databaseUrl: describeDatabaseUrl(ctx.config.databaseUrl).maintenanceUrl,
        databasePoolMax: 2,
      }),
    };
  });
  afterEach(async () => {
    await ctx.runtime.redis.del(claimKey(prefix));
  });
  afterAll(async () => {
    await other.sequelize.close();
    await ctx.close();
  });

  it('when a deployment with another database starts on a claimed prefix, it is refused with a message naming REDIS_KEY_PREFIX', async () => {
    await claimOf(ctx.runtime.db).claim();

    const refused = claimOf(other).claim();

    await expect(refused).rejects.toBeInstanceOf(KeySpaceTaken);
    await expect(refused).rejects.toThrow(`REDIS_KEY_PREFIX "${prefix}" is claimed by another deployment`);
  });

  it('when the same database starts again on its prefix, it starts', async () => {
    await claimOf(ctx.runtime.db).claim();

    await expect(claimOf(ctx.runtime.db).claim()).resolves.toBeUndefined();
    expect(await claimOf(ctx.runtime.db).check()).toEqual({ state: 'claimed' });
  });

  it('when Redis lost the claim (a flush), the next check writes it again and another database is refused again', async () => {
    await claimOf(ctx.runtime.db).claim();
    const before = await ctx.runtime.redis.get(claimKey(prefix));
    await ctx.runtime.redis.del(claimKey(prefix));

    const found = await claimOf(ctx.runtime.db).check();

    expect(found).toEqual({ state: 'claimed' });
    expect(await ctx.runtime.redis.get(claimKey(prefix))).toBe(before);
    await expect(claimOf(other).claim()).rejects.toBeInstanceOf(KeySpaceTaken);
  });

  it("when another database holds the prefix, readiness answers not ready, and ready for the claim's own database", async () => {
    await claimOf(other).claim();

    const refused = await checkReadiness(ctx.runtime.db.sequelize, ctx.runtime.redis, claimOf(ctx.runtime.db));
    await ctx.runtime.redis.del(claimKey(prefix));
    const claimed = await checkReadiness(ctx.runtime.db.sequelize, ctx.runtime.redis, claimOf(ctx.runtime.db));

    expect(refused).toMatchObject({ ready: false, keySpace: 'taken', dependencies: { postgres: 'up', redis: 'up' } });
    expect(claimed).toMatchObject({ ready: true, keySpace: 'claimed' });
  });
});
