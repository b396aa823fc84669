import { ACCOUNT_NOT_ACTIVE } from '@wms/identity';
import { createTestContext, createUser, request, type TestContext, type TestGateway } from '@wms/testing';

/** LOGIN_LOCK_SECONDS: 0 keeps a lock until an admin lifts it; more lets it expire. */
describe('auth: login lock expiry', () => {
  let ctx: TestContext;
  let untilUnlocked: TestGateway;
  let expiring: TestGateway;

  beforeAll(async () => {
    ctx = await createTestContext('auth-lock-expiry', { LOGIN_MAX_FAILED_ATTEMPTS: '3' });
    untilUnlocked = await ctx.startGateway();
    expiring = await ctx.startGateway({ LOGIN_LOCK_SECONDS: '900' });
  });
  afterAll(() => ctx.close());

  const login = (gateway: TestGateway, email: string, password: string) =>
    request(gateway.url, 'POST', '/api/v1/auth/login', { body: { email, password } });
  const lockedUser = async (gateway: TestGateway) => {
    const created = await createUser(ctx);
    for (let i = 0; i < 3; i++) await login(gateway, created.user.email, 'wrong-password');
    return created;
  };
  /** Moves the start of the user's lock into the past, as if that many seconds had gone by. */
  const lockedSecondsAgo = (userId: string, seconds: number) =>
    ctx.runtime.db.sequelize.query(
      `UPDATE users SET locked_at = now() - make_interval(secs => :seconds) WHERE id = :userId`,
      { replacements: { userId, seconds } },
    );
  const statusOf = async (userId: string) => {
    const [rows] = (await ctx.runtime.db.sequelize.query(`SELECT status FROM users WHERE id = :userId`, {
      replacements: { userId },
    })) as [Array<{ status: string }>, unknown];
    return rows[0]!.status;
  };

  it('with LOGIN_LOCK_SECONDS=0 (the default), a lock never expires: the right password is refused a day later', async () => {
    const { user, password } = await lockedUser(untilUnlocked);
    await lockedSecondsAgo(user.id, 86_400);

    const response = await login(untilUnlocked, user.email, password);

    expect(response.status).toBe(401);
    expect(response.body.message).toBe(ACCOUNT_NOT_ACTIVE);
    expect(await statusOf(user.id)).toBe('locked');
  });

  it('with LOGIN_LOCK_SECONDS set, a lock still running refuses even the right password', async () => {
    const { user, password } = await lockedUser(expiring);
    await lockedSecondsAgo(user.id, 899);

    const response = await login(expiring, user.email, password);

    expect(response.status).toBe(401);
    expect(response.body.message).toBe(ACCOUNT_NOT_ACTIVE);
  });

  it('with LOGIN_LOCK_SECONDS set, the first login after the lock expired is judged normally', async () => {
    const { user, password } = await lockedUser(expiring);
    await lockedSecondsAgo(user.id, 901);

    const response = await login(expiring, user.email, password);

    expect(response.status).toBe(200);
    expect(await statusOf(user.id)).toBe('active');
  });

  it('after the lock expired, the failure count starts again from zero', async () => {
    const { user, password } = await lockedUser(expiring);
    await lockedSecondsAgo(user.id, 901);

    const wrong = await login(expiring, user.email, 'wrong-password');
    const right = await login(expiring, user.email, password);

    expect(wrong.status).toBe(401);
    expect(wrong.body.message).not.toBe(ACCOUNT_NOT_ACTIVE);
    expect(right.status).toBe(200);
  });

  it('an account an admin disabled does not come back when the time passes', async () => {
    const { user, password } = await createUser(ctx, { status: 'inactive' });
    await lockedSecondsAgo(user.id, 86_400);

    const response = await login(expiring, user.email, password);

    expect(response.status).toBe(401);
    expect(await statusOf(user.id)).toBe('inactive');
  });
});
