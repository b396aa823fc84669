import { createTestContext, request, TEST_ADMIN, type TestContext, type TestGateway } from '@wms/testing';

/** A browser session: the refresh token only ever in an httpOnly cookie, never in a body the page reads. */
describe('auth: refresh token in a cookie for the admin portal', () => {
  let ctx: TestContext;
  let gateway: TestGateway;

  beforeAll(async () => {
    ctx = await createTestContext('auth-cookie');
    gateway = await ctx.startGateway();
  });
  afterAll(() => ctx.close());

  const cookieLogin = (headers: Record<string, string> = {}) =>
    request(gateway.url, 'POST', '/api/v1/auth/login', {
      body: { email: TEST_ADMIN.email, password: TEST_ADMIN.password, refreshCookie: true },
      headers,
    });
  const refreshWith = (cookie?: string) =>
    request(gateway.url, 'POST', '/api/v1/auth/refresh', { body: {}, headers: cookie ? { cookie } : {} });
  /** `wms_refresh=<token>` from a Set-Cookie header. */
  const cookieOf = (setCookie: string | null) => /^(wms_refresh=[^;]+)/.exec(setCookie ?? '')![1]!;

  it('login with refreshCookie sets an httpOnly, SameSite=Strict cookie on the auth path and leaves the token out of the body', async () => {
    const response = await cookieLogin();

    expect(response.status).toBe(200);
    expect(typeof response.body.accessToken).toBe('string');
    expect(response.body.refreshToken).toBeUndefined();
    const setCookie = response.headers.get('set-cookie')!;
    expect(setCookie).toMatch(/^wms_refresh=[\w-]+\.[\w-]+\.[\w-]+;/);
    expect(setCookie).toContain('Path=/api/v1/auth');
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Strict');
    expect(setCookie).toMatch(/Max-Age=\d+/);
    expect(setCookie).not.toContain('Secure');
  });

  it('behind an HTTPS proxy the cookie is Secure', async () => {
    const response = await cookieLogin({ 'x-forwarded-proto': 'https' });

    expect(response.headers.get('set-cookie')).toContain('Secure');
  });

  it('a login without the flag answers both tokens in the body and sets no cookie, as before', async () => {
    const response = await request(gateway.url, 'POST', '/api/v1/auth/login', {
      body: { email: TEST_ADMIN.email, password: TEST_ADMIN.password },
    });

    expect(typeof response.body.refreshToken).toBe('string');
    expect(response.headers.get('set-cookie')).toBeNull();
  });

  it('refresh with the cookie and no body answers a new access token and renews the cookie', async () => {
    const cookie = cookieOf((await cookieLogin()).headers.get('set-cookie'));

    const response = await refreshWith(cookie);

    expect(response.status).toBe(200);
    expect(typeof response.body.accessToken).toBe('string');
    expect(response.body.refreshToken).toBeUndefined();
    expect(response.headers.get('set-cookie')).toMatch(/^wms_refresh=[\w-]+\.[\w-]+\.[\w-]+;.*HttpOnly/);
    const me = await request(gateway.url, 'GET', '/api/v1/auth/me', { token: String(response.body.accessToken) });
    expect(me.body.email).toBe(TEST_ADMIN.email);
  });

  it('refresh with neither a token nor a cookie is a 401: there is no session', async () => {
    const response = await refreshWith();

    expect(response.status).toBe(401);
    expect(response.body.message).toBe('No session: send refreshToken, or sign in again');
  });

  it('login with refreshCookie also sets the readable session hint for the portal’s pages, and logout clears it', async () => {
    const login = await cookieLogin();
    const logout = await request(gateway.url, 'POST', '/api/v1/auth/logout');

    expect(login.headers.getSetCookie()).toEqual(
      expect.arrayContaining([expect.stringMatching(/^wms_session=1; Max-Age=\d+; Path=\/admin; .*SameSite=Strict$/)]),
    );
    expect(login.headers.getSetCookie().find((cookie) => cookie.startsWith('wms_session='))).not.toContain('HttpOnly');
    expect(logout.headers.getSetCookie()).toEqual(
      expect.arrayContaining([expect.stringMatching(/^wms_session=; Path=\/admin; Expires=Thu, 01 Jan 1970/)]),
    );
  });

  it('refresh with a bad cookie is a 401 and the cookie is cleared', async () => {
    const response = await refreshWith('wms_refresh=not-a-token');

    expect(response.status).toBe(401);
    expect(response.headers.get('set-cookie')).toMatch(/^wms_refresh=;.*Expires=Thu, 01 Jan 1970/);
  });

  it('logout clears the cookie', async () => {
    const response = await request(gateway.url, 'POST', '/api/v1/auth/logout');

    expect(response.status).toBe(204);
    expect(response.headers.get('set-cookie')).toMatch(
      /^wms_refresh=;.*Path=\/api\/v1\/auth.*Expires=Thu, 01 Jan 1970/,
    );
  });
});
