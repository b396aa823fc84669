import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestContext, TEST_REDIS_URL, type TestContext } from '@wms/testing';

/** The built entry point (npm run test:jest builds first), started as a real process. */
const MAIN = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'main.js');

function runGateway(env: NodeJS.ProcessEnv): Promise<{ code: number | null; stderr: string; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let stdout = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    // A gateway that starts despite a bad secret would never exit: stop it and report.
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr, stdout });
    });
  });
}

describe('gateway start-up', () => {
  let ctx: TestContext;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    ctx = await createTestContext('gateway-main');
    env = {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      PORT: '0',
      DATABASE_URL: ctx.config.databaseUrl,
      REDIS_URL: TEST_REDIS_URL,
      REDIS_KEY_PREFIX: ctx.config.redisKeyPrefix,
      LOG_LEVEL: 'silent',
    };
  });
  afterAll(() => ctx.close());

  it('without JWT_SECRET it exits non-zero with one line naming JWT_SECRET', async () => {
    const result = await runGateway(env);

    expect(result.code).not.toBe(0);
    expect(result.stderr.trim().split('\n')).toEqual(['Invalid configuration: JWT_SECRET is required']);
  });

  it('with a JWT_SECRET shorter than 16 characters it exits non-zero with one line naming JWT_SECRET', async () => {
    const result = await runGateway({ ...env, JWT_SECRET: 'only-15-chars!!' });

    expect(result.code).not.toBe(0);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Invalid configuration: JWT_SECRET .*16/);
  });
});
