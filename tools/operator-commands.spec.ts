import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ACCOUNT_NOT_ACTIVE } from '@wms/identity';
import {
  createTestContext,
  createUser,
  request,
  type SessionAnswer,
  type TestContext,
  type TestGateway,
} from '@wms/testing';

const root = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..');

/**
 * Runs `npm run wms -- <args>` as an operator would, with the database's address alone in the environment:
 * no JWT_SECRET, no Redis, no running service needed.
 */
function wms(ctx: TestContext, ...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    let stdout = '';
    let stderr = '';
    const child = spawn('npm', ['run', '--silent', 'wms', '--', ...args], {
      cwd: root,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, DATABASE_URL: ctx.env.DATABASE_URL, BCRYPT_ROUNDS: '4' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('operator commands: npm run wms -- users …', () => {
  let ctx: TestContext;
  let gateway: TestGateway;

  beforeAll(async () => {
    ctx = await createTestContext('operator-commands', { LOGIN_MAX_FAILED_ATTEMPTS: '2' });
    gateway = await ctx.startGateway();
  });
  afterAll(() => ctx.close());

  const login = (email: string, password: string) =>
    request<SessionAnswer & { message?: string }>(gateway.url, 'POST', '/api/v1/auth/login', {
      body: { email, password },
    });
  const lockedUser = async () => {
    const created = await createUser(ctx, { role: 'admin' });
    await login(created.user.email, 'wrong-password');
    await login(created.user.email, 'wrong-password');
    return created;
  };

  it('users unlock <email> lifts a lock (count reset) and the admin signs in again', async () => {
    const { user, password } = await lockedUser();
    const locked = await login(user.email, password);

    const run = await wms(ctx, 'users', 'unlock', user.email.toUpperCase());
    const after = await login(user.email, password);

    expect(locked.body.message).toBe(ACCOUNT_NOT_ACTIVE);
    expect(run).toMatchObject({ code: 0, stdout: `${user.email}: unlocked; status active\n` });
    expect(after.status).toBe(200);
  }, 60_000);

  it('users reset-password <email> prints a one-time password once, unlocks, and ends every session', async () => {
    const { user, password } = await createUser(ctx, { role: 'admin' });
    const session = (await login(user.email, password)).body;
    await login(user.email, 'wrong-password');
    await login(user.email, 'wrong-password');

    const run = await wms(ctx, 'users', 'reset-password', user.email);
    const printed = run.stdout.trim().split('\n').at(-1)!;
    const withOld = await login(user.email, password);
    const withNew = await login(user.email, printed);
    const refresh = await request(gateway.url, 'POST', '/api/v1/auth/refresh', {
      body: { refreshToken: session.refreshToken },
    });

    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`${user.email}: password reset; status active; 1 session(s) ended.`);
    expect(printed).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(run.stdout.split(printed)).toHaveLength(2);
    expect(withOld.status).toBe(401);
    expect(withNew.status).toBe(200);
    expect(refresh.status).toBe(401);
  }, 60_000);

  it('a reset leaves a disabled account disabled', async () => {
    const { user } = await createUser(ctx, { status: 'inactive' });

    const run = await wms(ctx, 'users', 'reset-password', user.email);

    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`${user.email}: password reset; status inactive;`);
  }, 60_000);

  it('an e-mail is found in its normal form (fullwidth, any case); one with an invisible character is refused', async () => {
    const { user } = await lockedUser();
    const fullwidth = user.email.replace(/[a-z0-9]/g, (char) => String.fromCodePoint(char.codePointAt(0)! + 0xfee0));

    const run = await wms(ctx, 'users', 'unlock', fullwidth.toUpperCase());
    const hidden = await wms(ctx, 'users', 'unlock', `${user.email.slice(0, 2)}\u200b${user.email.slice(2)}`);

    expect(run).toMatchObject({ code: 0, stdout: `${user.email}: unlocked; status active\n` });
    expect(hidden).toMatchObject({ code: 1, stderr: 'The e-mail must not contain invisible characters\n' });
  }, 60_000);

  it('an unknown e-mail is refused with exit code 1 and a message; a wrong command with the usage and 2', async () => {
    const unknown = await wms(ctx, 'users', 'unlock', 'nobody@example.test');
    const wrong = await wms(ctx, 'users', 'delete', 'nobody@example.test');

    expect(unknown).toMatchObject({ code: 1, stdout: '', stderr: 'No user with e-mail nobody@example.test\n' });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('Usage: npm run wms -- users unlock <email> | users reset-password <email>');
  }, 60_000);
});
