import { ACCOUNT_NOT_ACTIVE, INVALID_CREDENTIALS, userModel } from '@wms/identity';
import {
  createTestContext,
  createUser,
  loginAs,
  request,
  type SessionAnswer,
  type JsonNode,
  TEST_ADMIN,
  type TestContext,
  type TestGateway,
} from '@wms/testing';

const MAX_FAILED = 3;

describe('auth: login, lockout and refresh', () => {
  let ctx: TestContext;
  let gateway: TestGateway;

  const login = <T = JsonNode>(email: string, password: string) =>
    request<T>(gateway.url, 'POST', '/api/v1/auth/login', { body: { email, password } });
  const storedUser = async (id: string) => (await userModel(ctx.runtime.db).findByPk(id))!.get({ plain: true });

  beforeAll(async () => {
    ctx = await createTestContext('auth-login', { LOGIN_MAX_FAILED_ATTEMPTS: String(MAX_FAILED) });
    gateway = await ctx.startGateway();
  });
  afterAll(() => ctx.close());

  describe('POST /api/v1/auth/login', () => {
    it('when the seeded admin logs in with a mixed-case, padded e-mail, it gets the user and both tokens', async () => {
      const response = await login(`  ${TEST_ADMIN.email.toUpperCase()} `, TEST_ADMIN.password);

      expect(response.status).toBe(200);
      expect(response.body.user).toMatchObject({ email: TEST_ADMIN.email, role: 'admin', tenantId: null });
      expect(response.body.user.passwordHash).toBeUndefined();
      expect(typeof response.body.accessToken).toBe('string');
      expect(typeof response.body.refreshToken).toBe('string');
    });

    it('when a user logs in, lastLoginAt is set', async () => {
      const { user, password } = await createUser(ctx);

      await login(user.email, password);

      expect((await storedUser(user.id)).lastLoginAt).toBeInstanceOf(Date);
    });

    it('when the e-mail is unknown or the password wrong, both get the same 401 message', async () => {
      const { user } = await createUser(ctx, { password: 'right-password' });

      const unknown = await login('nobody@example.test', 'right-password');
      const wrong = await login(user.email, 'wrong-password');

      expect(unknown.status).toBe(401);
      expect(wrong.status).toBe(401);
      expect(unknown.body).toEqual({
        statusCode: 401,
        message: INVALID_CREDENTIALS,
        error: 'Unauthorized',
        code: 'INVALID_CREDENTIALS',
        requestId: expect.any(String),
      });
      expect(wrong.body.message).toBe(INVALID_CREDENTIALS);
    });

    it.each(['inactive', 'locked'] as const)(
      'when a %s user logs in with the right password, it gets 401 saying inactive or locked',
      async (status) => {
        const { user, password } = await createUser(ctx, { status });

        const response = await login(user.email, password);

        expect(response.status).toBe(401);
        expect(response.body.message).toBe(ACCOUNT_NOT_ACTIVE);
        expect(response.body.message).toMatch(/inactive or locked/);
      },
    );

    it('when the body lacks the password, it answers 400 VALIDATION_FAILED naming the field', async () => {
      const response = await request(gateway.url, 'POST', '/api/v1/auth/login', { body: { email: 'a@b.test' } });

      expect(response.status).toBe(400);
      expect(response.body.details).toEqual([{ path: 'password', message: expect.stringContaining('required') }]);
    });
    it('when the e-mail or password is absurdly long, it answers 400 naming the field and never reaches the account', async () => {
      const { user, password } = await createUser(ctx);

      const longPassword = await login(user.email, 'x'.repeat(500_000));
      const longEmail = await login(`${'a'.repeat(300)}@wms.test`, password);
      const stored = await storedUser(user.id);

      expect(longPassword.status).toBe(400);
      expect(longPassword.body.details).toEqual([{ path: 'password', message: expect.stringContaining('1024') }]);
      expect(longEmail.status).toBe(400);
      expect(longEmail.body.details).toEqual([{ path: 'email', message: expect.stringContaining('254') }]);
      expect(stored.failedLoginCount).toBe(0);
    });
  });

  describe('lockout', () => {
    it(`after ${MAX_FAILED} consecutive wrong passwords the account is locked, and even the right password gets 401`, async () => {
      const { user, password } = await createUser(ctx);

      for (let attempt = 1; attempt <= MAX_FAILED; attempt++) {
        expect((await login(user.email, 'wrong-password')).body.message).toBe(INVALID_CREDENTIALS);
      }
      const withRightPassword = await login(user.email, password);

      expect((await storedUser(user.id)).status).toBe('locked');
      expect(withRightPassword.status).toBe(401);
      expect(withRightPassword.body.message).toBe(ACCOUNT_NOT_ACTIVE);
    });

    it('when an admin unlocks a locked user, the user can log in again with a reset count', async () => {
      const { user, password } = await createUser(ctx);
      for (let attempt = 1; attempt <= MAX_FAILED; attempt++) await login(user.email, 'wrong-password');
      const adminToken = await loginAs(gateway.url, TEST_ADMIN.email, TEST_ADMIN.password);

      const unlock = await request(gateway.url, 'POST', `/api/v1/users/${user.id}/unlock`, { token: adminToken });
      const afterUnlock = await login(user.email, password);

      expect(unlock.status).toBe(200);
      expect(unlock.body).toMatchObject({ id: user.id, status: 'active', failedLoginCount: 0 });
      expect(afterUnlock.status).toBe(200);
    });

    it('a successful login resets the count, so failures before it do not add up to a lock', async () => {
      const { user, password } = await createUser(ctx);

      for (let attempt = 1; attempt < MAX_FAILED; attempt++) await login(user.email, 'wrong-password');
      expect((await login(user.email, password)).status).toBe(200);
      for (let attempt = 1; attempt < MAX_FAILED; attempt++) await login(user.email, 'wrong-password');

      const stored = await storedUser(user.id);
      expect(stored.status).toBe('active');
      expect(stored.failedLoginCount).toBe(MAX_FAILED - 1);
    });
  });

  describe('POST /api/v1/auth/refresh', () => {
    it('exchanges a refresh token for a new pair whose tokens both work', async () => {
      const { user, password } = await createUser(ctx);
      const first = (await login<SessionAnswer>(user.email, password)).body;

      const refreshed = await request<SessionAnswer>(gateway.url, 'POST', '/api/v1/auth/refresh', {
        body: { refreshToken: first.refreshToken },
      });
      const me = await request(gateway.url, 'GET', '/api/v1/auth/me', { token: refreshed.body.accessToken });
      const again = await request(gateway.url, 'POST', '/api/v1/auth/refresh', {
        body: { refreshToken: refreshed.body.refreshToken },
      });

      expect(refreshed.status).toBe(200);
      expect(refreshed.body).toEqual({
        accessToken: expect.any(String),
        refreshToken: expect.any(String),
        requestId: expect.any(String),
      });
      expect(me.status).toBe(200);
      expect(me.body.id).toBe(user.id);
      expect(again.status).toBe(200);
    });

    it('when an access token is sent as the refresh token, it answers 401', async () => {
      const { user, password } = await createUser(ctx);
      const { accessToken } = (await login<SessionAnswer>(user.email, password)).body;

      const response = await request(gateway.url, 'POST', '/api/v1/auth/refresh', {
        body: { refreshToken: accessToken },
      });

      expect(response.status).toBe(401);
      expect(response.body.message).toMatch(/refresh token expected/);
    });

    it('when a refresh token is sent as the bearer token, it answers 401', async () => {
      const { user, password } = await createUser(ctx);
      const { refreshToken } = (await login<SessionAnswer>(user.email, password)).body;

      const response = await request(gateway.url, 'GET', '/api/v1/auth/me', { token: refreshToken });

      expect(response.status).toBe(401);
      expect(response.body.message).toMatch(/access token expected/);
    });

    it('when the user has been disabled since login, refresh answers 401 inactive or locked', async () => {
      const { user, password } = await createUser(ctx);
      const { refreshToken } = (await login<SessionAnswer>(user.email, password)).body;
      await userModel(ctx.runtime.db).update({ status: 'inactive' }, { where: { id: user.id } });

      const response = await request(gateway.url, 'POST', '/api/v1/auth/refresh', { body: { refreshToken } });

      expect(response.status).toBe(401);
      expect(response.body.message).toBe(ACCOUNT_NOT_ACTIVE);
    });

    it('a refreshed access token carries the modules as stored now', async () => {
      const { user, password } = await createUser(ctx);
      const { refreshToken } = (await login<SessionAnswer>(user.email, password)).body;
      await userModel(ctx.runtime.db).update({ adminModules: ['users'] }, { where: { id: user.id } });

      const refreshed = await request<SessionAnswer>(gateway.url, 'POST', '/api/v1/auth/refresh', {
        body: { refreshToken },
      });
      const list = await request(gateway.url, 'GET', '/api/v1/users', { token: refreshed.body.accessToken });

      expect(list.status).toBe(200);
    });
  });
});
