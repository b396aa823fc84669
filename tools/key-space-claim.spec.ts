import { createTestContext, startAppProcess, type AppProcess, type TestContext } from '@wms/testing';

// Two deployments with different databases on one Redis key space take each other's jobs: the second one's
// processes refuse to start, naming the setting that separates them (docs/operations.md, "Redis key space").
describe('a deployment on a Redis key space claimed by another database', () => {
  let ctx: TestContext;
  let other: TestContext;
  let started: AppProcess | undefined;

  beforeAll(async () => {
    ctx = await createTestContext('key-space-owner');
    other = await createTestContext('key-space-other');
    await ctx.runtime.keySpace.claim();
  });
  afterAll(async () => {
    await started?.kill();
    await other.close();
    await ctx.close();
  });

  /** The other deployment's environment with this one's prefix. */
  const intruder = () => ({ ...other.env, REDIS_KEY_PREFIX: ctx.config.redisKeyPrefix });

  it('an ingest worker of the other database exits 1 before taking a job, naming REDIS_KEY_PREFIX', async () => {
    await expect(startAppProcess('ingest-worker', intruder())).rejects.toThrow(
      /exited with 1[\s\S]*REDIS_KEY_PREFIX "[^"]+" is claimed by another deployment/,
    );
  });

  it('a gateway of the other database exits 1 before its first request, naming REDIS_KEY_PREFIX', async () => {
    await expect(startAppProcess('gateway', intruder())).rejects.toThrow(
      /exited with 1[\s\S]*REDIS_KEY_PREFIX "[^"]+" is claimed by another deployment/,
    );
  });

  it("a process of the claim's own database starts and answers ready", async () => {
    started = await startAppProcess('ingest-worker', ctx.env);

    const ready = await fetch(`${started.url}/health/ready`);

    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: 'ready', keySpace: 'claimed' });
  });
});
