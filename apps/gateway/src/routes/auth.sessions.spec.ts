import jwt from 'jsonwebtoken';
import { refreshTokenDigest, TOKEN_AUDIENCES, TOKEN_ISSUER } from '@wms/identity';
import {
  TEST_JWT_SECRET,
  createTestContext,
  createUser,
  request,
  type SessionAnswer,
  type TestContext,
  type TestGateway,
} from '@wms/testing';

/** Sessions that end: refresh-token families, rotation, reuse, logout, and what a token must claim. */
describe('auth: sessions', () => {
  let ctx: TestContext;
  let gateway: TestGateway;

  beforeAll(async () => {
    ctx = await createTestContext('auth-sessions');
    gateway = await ctx.startGateway();
  });
  afterAll(() => ctx.close());

  const signIn = async (body: Record<string, unknown> = {}) => {
    const { user, password } = await createUser(ctx);
    const response = await request<SessionAnswer>(gateway.url, 'POST', '/api/v1/auth/login', {
      body: { email: user.email, password, ...body },
    });
    return { user, session: response.body, response };
  };
  const refresh = (refreshToken: string) =>
    request<SessionAnswer>(gateway.url, 'POST', '/api/v1/auth/refresh', { body: { refreshToken } });
  const refreshWithCookie = (cookie: string) =>
    request<SessionAnswer>(gateway.url, 'POST', '/api/v1/auth/refresh', { body: {}, headers: { cookie } });
  const logout = (options: { body?: unknown; headers?: Record<string, string> } = {}) =>
    request(gateway.url, 'POST', '/api/v1/auth/logout', options);
  const cookieOf = (setCookie: string | null) => /(wms_refresh=[^;]+)/.exec(setCookie ?? '')![1]!;
  const me = (accessToken: string) => request(gateway.url, 'GET', '/api/v1/auth/me', { token: accessToken });

  describe('refresh-token families', () => {
    it('stores a refresh token only as its SHA-256 digest, in a family of its user', async () => {
      const { user, session } = await signIn();

      const [rows] = (await ctx.runtime.db.sequelize.query(
        `SELECT encode(t.token_hash, 'hex') AS hash, f.user_id AS "userId"
           FROM refresh_tokens t JOIN refresh_token_families f ON f.id = t.family_id
          WHERE f.user_id = :userId`,
        { replacements: { userId: user.id } },
      )) as [Array<{ hash: string; userId: string }>, unknown];

      expect(rows).toEqual([{ hash: refreshTokenDigest(session.refreshToken), userId: user.id }]);
    });

    it('each refresh rotates: the successor refreshes again, within the same family', async () => {
      const { user, session } = await signIn();

      const first = await refresh(session.refreshToken);
      const second = await refresh(first.body.refreshToken);

      expect([first.status, second.status]).toEqual([200, 200]);
      expect(first.body.refreshToken).not.toBe(session.refreshToken);
      const [families] = (await ctx.runtime.db.sequelize.query(
        `SELECT count(DISTINCT f.id)::int AS families, count(t.token_hash)::int AS tokens
           FROM refresh_token_families f JOIN refresh_tokens t ON t.family_id = f.id WHERE f.user_id = :userId`,
        { replacements: { userId: user.id } },
      )) as [Array<{ families: number; tokens: number }>, unknown];
      expect(families).toEqual([{ families: 1, tokens: 3 }]);
    });

    it('when a rotated token is used again, it answers 401 and ends the family, its successor included', async () => {
      const { session } = await signIn();
      const rotated = await refresh(session.refreshToken);

      const reuse = await refresh(session.refreshToken);
      const successor = await refresh(rotated.body.refreshToken);

      expect(reuse.status).toBe(401);
      expect(reuse.body).toMatchObject({ statusCode: 401, message: expect.stringMatching(/already used/) });
      expect(successor.status).toBe(401);
    });

    it('ending one family leaves the same user’s other sessions alive', async () => {
      const { user, password } = await createUser(ctx);
      const login = () =>
        request<SessionAnswer>(gateway.url, 'POST', '/api/v1/auth/login', { body: { email: user.email, password } });
      const laptop = (await login()).body;
      const phone = (await login()).body;
      await refresh(laptop.refreshToken);

      await refresh(laptop.refreshToken);

      expect((await refresh(phone.refreshToken)).status).toBe(200);
    });

    it('a user who is no longer active cannot refresh', async () => {
      const { user, session } = await signIn();
      await ctx.runtime.db.sequelize.query(`UPDATE users SET status = 'inactive' WHERE id = :id`, {
        replacements: { id: user.id },
      });

      const response = await request(gateway.url, 'POST', '/api/v1/auth/refresh', {
        body: { refreshToken: session.refreshToken },
      });

      expect(response.status).toBe(401);
      expect(response.body.message).toMatch(/inactive or locked/);
    });

    it('a token the service never stored (signed with the secret, but not issued) is refused', async () => {
      const { user } = await signIn();
      const forged = jwt.sign({ sub: user.id, typ: 'refresh', sv: 0 }, TEST_JWT_SECRET, {
        algorithm: 'HS256',
        issuer: TOKEN_ISSUER,
        audience: TOKEN_AUDIENCES.refresh,
        expiresIn: 600,
      });

      const response = await refresh(forged);

      expect(response.status).toBe(401);
    });
  });

  describe('logout', () => {
    it('with the refresh token in the body, it answers 204 and a refresh with that token is then 401', async () => {
      const { session } = await signIn();

      const response = await logout({ body: { refreshToken: session.refreshToken } });
      const after = await refresh(session.refreshToken);

      expect(response.status).toBe(204);
      expect(after.status).toBe(401);
    });

    it('ends the whole family: a token rotated before the logout is refused too', async () => {
      const { session } = await signIn();
      const rotated = (await refresh(session.refreshToken)).body;

      await logout({ body: { refreshToken: session.refreshToken } });

      expect((await refresh(rotated.refreshToken)).status).toBe(401);
    });

    it('with the session cookie, it ends the browser session and clears the cookie', async () => {
      const { response } = await signIn({ refreshCookie: true });
      const cookie = cookieOf(response.headers.get('set-cookie'));

      const out = await logout({ headers: { cookie } });
      const after = await refreshWithCookie(cookie);

      expect(out.status).toBe(204);
      expect(out.headers.get('set-cookie')).toMatch(/^wms_refresh=;/);
      expect(after.status).toBe(401);
    });

    it('without any token, or with one it does not know, it is harmless: 204', async () => {
      const { session } = await signIn();

      const statuses = [
        (await logout()).status,
        (await logout({ body: {} })).status,
        (await logout({ body: { refreshToken: 'not-a-token' } })).status,
      ];

      expect(statuses).toEqual([204, 204, 204]);
      expect((await refresh(session.refreshToken)).status).toBe(200);
    });

    it('a malformed body is a 400, as for refresh', async () => {
      const response = await logout({ body: { refreshToken: 42 } });

      expect(response.status).toBe(400);
    });
  });

  describe('refresh without a session', () => {
    it('with neither a token nor a cookie, it answers 401: there is no session', async () => {
      const response = await request(gateway.url, 'POST', '/api/v1/auth/refresh', { body: {} });
      const noBody = await request(gateway.url, 'POST', '/api/v1/auth/refresh');

      expect(response.status).toBe(401);
      expect(response.body).toEqual({
        statusCode: 401,
        message: 'No session: send refreshToken, or sign in again',
        error: 'Unauthorized',
        code: 'NO_SESSION',
        requestId: expect.any(String),
      });
      expect(noBody.status).toBe(401);
    });

    it('a refreshToken that is not a string is still a 400 naming the field', async () => {
      const response = await request(gateway.url, 'POST', '/api/v1/auth/refresh', { body: { refreshToken: 7 } });

      expect(response.status).toBe(400);
      expect(response.body.details).toEqual([expect.objectContaining({ path: 'refreshToken' })]);
    });
  });

  describe('issuer and audience', () => {
    it('tokens carry iss, an aud of their type, and typ', async () => {
      const { session } = await signIn();

      expect(jwt.decode(session.accessToken)).toMatchObject({
        iss: TOKEN_ISSUER,
        aud: TOKEN_AUDIENCES.access,
        typ: 'access',
      });
      expect(jwt.decode(session.refreshToken)).toMatchObject({
        iss: TOKEN_ISSUER,
        aud: TOKEN_AUDIENCES.refresh,
        typ: 'refresh',
      });
    });

    it('an access token re-signed with the right secret but without iss and aud is refused with 401', async () => {
      const { session } = await signIn();
      const { iss: _iss, aud: _aud, ...claims } = jwt.decode(session.accessToken) as jwt.JwtPayload;
      const resigned = jwt.sign(claims, TEST_JWT_SECRET, { algorithm: 'HS256' });

      const original = await me(session.accessToken);
      const response = await me(resigned);

      expect(original.status).toBe(200);
      expect(response.status).toBe(401);
    });

    it('an access token of another audience or issuer is refused with 401', async () => {
      const { session } = await signIn();
      const { iss: _iss, aud: _aud, ...claims } = jwt.decode(session.accessToken) as jwt.JwtPayload;
      const sign = (issuer: string, audience: string) =>
        jwt.sign(claims, TEST_JWT_SECRET, { algorithm: 'HS256', issuer, audience });

      const otherAudience = await me(sign(TOKEN_ISSUER, TOKEN_AUDIENCES.refresh));
      const otherIssuer = await me(sign('another-service', TOKEN_AUDIENCES.access));

      expect([otherAudience.status, otherIssuer.status]).toEqual([401, 401]);
    });

    it('a refresh token re-signed without iss and aud is refused with 401', async () => {
      const { session } = await signIn();
      const { iss: _iss, aud: _aud, ...claims } = jwt.decode(session.refreshToken) as jwt.JwtPayload;

      const response = await refresh(jwt.sign(claims, TEST_JWT_SECRET, { algorithm: 'HS256' }));

      expect(response.status).toBe(401);
    });
  });
});
