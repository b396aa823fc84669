import { INVALID_CURRENT_PASSWORD } from '@wms/identity';
import {
  createTestContext,
  createUser,
  defaultTenantId,
  request,
  type SessionAnswer,
  type JsonNode,
  type TestContext,
  type TestGateway,
} from '@wms/testing';

describe('auth: register, me, change-password', () => {
  let ctx: TestContext;
  let closed: TestGateway;
  let open: TestGateway;

  beforeAll(async () => {
    ctx = await createTestContext('auth-self-service');
    closed = await ctx.startGateway();
    open = await ctx.startGateway({ AUTH_ALLOW_REGISTRATION: 'true' });
  });
  afterAll(() => ctx.close());

  const registration = (email: string) => ({
    email,
    password: 'long-enough-pw',
    firstName: 'Ada',
    lastName: 'Lovelace',
  });

  describe('POST /api/v1/auth/register', () => {
    it('when registration is off (the default), it answers 403 and creates nobody', async () => {
      const response = await request(closed.url, 'POST', '/api/v1/auth/register', {
        body: registration('off@example.test'),
      });

      expect(response.status).toBe(403);
      expect(response.body).toEqual({
        statusCode: 403,
        message: 'Registration is disabled',
        error: 'Forbidden',
        code: 'REGISTRATION_DISABLED',
        requestId: expect.any(String),
      });
      expect(await ctx.services.users.repository.findByEmail('off@example.test')).toBeNull();
    });

    it('when registration is on, it answers 201 with the login body: a viewer of tenant DEFAULT, signed in', async () => {
      const response = await request<SessionAnswer & { user: JsonNode }>(open.url, 'POST', '/api/v1/auth/register', {
        body: registration('  New.User@Example.Local '),
      });
      const me = await request(open.url, 'GET', '/api/v1/auth/me', { token: response.body.accessToken });

      expect(response.status).toBe(201);
      expect(response.body.user).toMatchObject({
        email: 'new.user@example.local',
        firstName: 'Ada',
        role: 'viewer',
        tenantId: await defaultTenantId(ctx),
        adminModules: [],
        adminModulesWrite: [],
      });
      expect(response.body).toEqual(
        expect.objectContaining({ accessToken: expect.any(String), refreshToken: expect.any(String) }),
      );
      expect(me.body.email).toBe('new.user@example.local');
    });

    it('when the e-mail is already registered, it answers 409', async () => {
      await request(open.url, 'POST', '/api/v1/auth/register', { body: registration('twice@example.test') });

      const response = await request(open.url, 'POST', '/api/v1/auth/register', {
        body: registration('TWICE@example.test'),
      });

      expect(response.status).toBe(409);
      expect(response.body.message).toMatch(/already exists/);
    });

    it('when the e-mail is malformed, the password short and a role is sent, it lists every problem in a 400', async () => {
      const response = await request(open.url, 'POST', '/api/v1/auth/register', {
        body: { ...registration('not-an-email'), password: 'short', role: 'admin' },
      });

      expect(response.status).toBe(400);
      expect(response.body.details.map((detail) => detail.path).sort()).toEqual(['email', 'password', 'role']);
    });
  });

  describe('GET /api/v1/auth/me', () => {
    it('answers the caller as stored, without any internal field', async () => {
      const { user, password } = await createUser(ctx);
      const { accessToken } = (
        await request<SessionAnswer>(closed.url, 'POST', '/api/v1/auth/login', {
          body: { email: user.email, password },
        })
      ).body;

      const response = await request(closed.url, 'GET', '/api/v1/auth/me', { token: accessToken });

      expect(response.status).toBe(200);
      expect(response.body).toEqual(user);
    });

    it('without a token it answers 401', async () => {
      const response = await request(closed.url, 'GET', '/api/v1/auth/me');

      expect(response.status).toBe(401);
      expect(response.body.message).toBe('Missing bearer token');
    });
  });

  describe('POST /api/v1/auth/change-password', () => {
    async function signIn(password = 'old-password-1') {
      const { user } = await createUser(ctx, { password });
      const session = (
        await request<SessionAnswer>(closed.url, 'POST', '/api/v1/auth/login', {
          body: { email: user.email, password },
        })
      ).body;
      return { user, ...session };
    }

    it('changes the password: the new one logs in, the old one no longer does', async () => {
      const { user, accessToken } = await signIn();

      const response = await request(closed.url, 'POST', '/api/v1/auth/change-password', {
        token: accessToken,
        body: { currentPassword: 'old-password-1', newPassword: 'new-password-2' },
      });
      const withNew = await request(closed.url, 'POST', '/api/v1/auth/login', {
        body: { email: user.email, password: 'new-password-2' },
      });
      const withOld = await request(closed.url, 'POST', '/api/v1/auth/login', {
        body: { email: user.email, password: 'old-password-1' },
      });

      expect(response.status).toBe(200);
      expect(response.body).toEqual(
        expect.objectContaining({ user, accessToken: expect.any(String), refreshToken: expect.any(String) }),
      );
      expect(withNew.status).toBe(200);
      expect(withOld.status).toBe(401);
    });

    it('voids refresh tokens issued before the change, while the pair it answers keeps working', async () => {
      const { accessToken, refreshToken: before } = await signIn();

      const changed = await request(closed.url, 'POST', '/api/v1/auth/change-password', {
        token: accessToken,
        body: { currentPassword: 'old-password-1', newPassword: 'new-password-2' },
      });
      const withOld = await request(closed.url, 'POST', '/api/v1/auth/refresh', { body: { refreshToken: before } });
      const withNew = await request(closed.url, 'POST', '/api/v1/auth/refresh', {
        body: { refreshToken: changed.body.refreshToken },
      });

      expect(withOld.status).toBe(401);
      expect(withOld.body.message).toMatch(/password change/);
      expect(withNew.status).toBe(200);
    });

    it('when the current password is wrong, it answers 400 and counts a failed attempt', async () => {
      const { user, accessToken } = await signIn();

      const response = await request(closed.url, 'POST', '/api/v1/auth/change-password', {
        token: accessToken,
        body: { currentPassword: 'not-the-password', newPassword: 'new-password-2' },
      });

      expect(response.status).toBe(400);
      expect(response.body.message).toBe(INVALID_CURRENT_PASSWORD);
      expect((await ctx.services.users.repository.findById(user.id))?.failedLoginCount).toBe(1);
    });

    it('when the new password is shorter than 8 characters, it answers 400 and keeps the old one', async () => {
      const { user, accessToken } = await signIn();

      const response = await request(closed.url, 'POST', '/api/v1/auth/change-password', {
        token: accessToken,
        body: { currentPassword: 'old-password-1', newPassword: 'short' },
      });
      const withOld = await request(closed.url, 'POST', '/api/v1/auth/login', {
        body: { email: user.email, password: 'old-password-1' },
      });

      expect(response.status).toBe(400);
      expect(response.body.details).toEqual([{ path: 'newPassword', message: expect.stringContaining('at least 8') }]);
      expect(withOld.status).toBe(200);
    });

    it('when the new password equals the current one, it answers 400', async () => {
      const { accessToken } = await signIn();

      const response = await request(closed.url, 'POST', '/api/v1/auth/change-password', {
        token: accessToken,
        body: { currentPassword: 'old-password-1', newPassword: 'old-password-1' },
      });

      expect(response.status).toBe(400);
      expect(response.body.message).toMatch(/must differ/);
    });
  });
});
