import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { closeRedis, createRedis, dropDatabase, loadConfig } from '@wms/platform';
import { deleteRedisKeys, freePort, testEnv, uniqueDatabaseName, uniqueRedisPrefix, waitFor } from '@wms/testing';

// The launcher as an orchestrator runs it (tools/entrypoint.sh): with MIGRATE_ON_START=false an app does not
// migrate but waits, not listening, until a `migrate` run (Kubernetes: the release's Job) has done it.
const root = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..');

interface Launched {
  child: ChildProcess;
  output(): string;
  exit: Promise<number | null>;
}

function launch(args: string[], env: NodeJS.ProcessEnv): Launched {
  let output = '';
  const child = spawn('sh', [join(root, 'tools/entrypoint.sh'), ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exit };
}

const answers = (url: string) =>
  fetch(url).then(
    (response) => response.status,
    () => 0,
  );

describe('MIGRATE_ON_START=false', () => {
  let env: NodeJS.ProcessEnv;
  let port: number;
  const launched: Launched[] = [];

  beforeEach(async () => {
    port = await freePort();
    env = {
      PATH: process.env.PATH,
      ...testEnv(uniqueDatabaseName('migrate-on-start'), uniqueRedisPrefix('migrate-on-start'), {
        MIGRATE_ON_START: 'false',
        PORT: String(port),
        LOG_LEVEL: 'info',
      }),
    };
  });
  afterEach(async () => {
    for (const { child, exit } of launched.splice(0)) {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exit;
    }
    const config = loadConfig(env);
    await dropDatabase(config.databaseUrl);
    const redis = createRedis(config, 'worker', 'migrate-on-start');
    try {
      await deleteRedisKeys(redis, config.redisKeyPrefix);
    } finally {
      await closeRedis(redis);
    }
  });

  it('an app waits, not listening, until a migrate run has applied every migration, then starts', async () => {
    const gateway = launch(['gateway'], env);
    launched.push(gateway);
    await waitFor(() => gateway.output().includes('waiting for the database schema'), 30_000, 'the wait to be logged');
    expect(await answers(`http://127.0.0.1:${port}/health/live`)).toBe(0);

    const migrate = launch(['migrate'], env);
    launched.push(migrate);
    expect(await migrate.exit).toBe(0);

    await waitFor(
      async () => (await answers(`http://127.0.0.1:${port}/health/ready`)) === 200,
      60_000,
      'the gateway to be ready',
    );
    expect(gateway.output()).not.toContain('database migrations applied');
    expect(migrate.output()).toContain('database migrations applied');
  }, 120_000);

  it('an app stopped while it waits for the schema exits 0 at once', async () => {
    const worker = launch(['webhook-worker'], { ...env, WORKER_HEALTH_PORT: String(port) });
    launched.push(worker);
    await waitFor(() => worker.output().includes('waiting for the database schema'), 30_000, 'the wait to be logged');

    worker.child.kill('SIGTERM');

    expect(await worker.exit).toBe(0);
  }, 60_000);
});
