import {
  TEST_ADMIN,
  createTestContext,
  createUser,
  loginAs,
  request,
  type TestContext,
  type TestGateway,
} from '@wms/testing';

describe('per-address login throttling', () => {
  let ctx: TestContext;
  let gateway: TestGateway;

  beforeAll(async () => {
    ctx = await createTestContext('login-throttle');
    gateway = await ctx.startGateway({ LOGIN_FAILURES_PER_IP_PER_MINUTE: '3', AUTH_ALLOW_REGISTRATION: 'true' });
  });
  afterAll(() => ctx.close());

  const login = (address: string, password: string) =>
    request(gateway.url, 'POST', '/api/v1/auth/login', {
      headers: { 'x-forwarded-for': address },
      body: { email: 'nobody@example.test', password },
    });

  it('when one address keeps failing to log in, it gets 429 in the plain shape with Retry-After', async () => {
    const failures = [
      await login('203.0.113.5', 'x'),
      await login('203.0.113.5', 'y'),
      await login('203.0.113.5', 'z'),
    ];

    const throttled = await login('203.0.113.5', 'w');

    expect(failures.map((response) => response.status)).toEqual([401, 401, 401]);
    expect(throttled.status).toBe(429);
    expect(throttled.body).toEqual({
      statusCode: 429,
      message: `Too many failed login attempts from this address. Retry in ${throttled.body.retryAfter} seconds.`,
      error: 'Too Many Requests',
      code: 'TOO_MANY_LOGIN_ATTEMPTS',
      retryAfter: expect.any(Number),
      requestId: expect.any(String),
    });
    expect(throttled.headers.get('retry-after')).toBe(String(throttled.body.retryAfter));
  });

  it('when logins from an address succeed, they do not count against it', async () => {
    const address = '203.0.113.6';
    const statuses = [];
    for (let i = 0; i < 5; i++) {
      const response = await request(gateway.url, 'POST', '/api/v1/auth/login', {
        headers: { 'x-forwarded-for': address },
        body: { email: TEST_ADMIN.email, password: TEST_ADMIN.password },
      });
      statuses.push(response.status);
    }

    expect(statuses).toEqual([200, 200, 200, 200, 200]);
  });

  it('registration failures from one address are throttled like failed logins', async () => {
    const address = '203.0.113.7';
    const register = () =>
      request(gateway.url, 'POST', '/api/v1/auth/register', {
        headers: { 'x-forwarded-for': address },
        body: { email: TEST_ADMIN.email, password: 'a-password-1', firstName: 'A', lastName: 'B' },
      });
    const failures = [(await register()).status, (await register()).status, (await register()).status];

    const throttled = await register();

    expect(failures).toEqual([409, 409, 409]);
    expect(throttled.status).toBe(429);
  });

  it('wrong current passwords at change-password from one address are throttled like failed logins', async () => {
    const address = '203.0.113.8';
    const { user, password } = await createUser(ctx);
    const token = await loginAs(gateway.url, user.email, password);
    const change = () =>
      request(gateway.url, 'POST', '/api/v1/auth/change-password', {
        headers: { 'x-forwarded-for': address },
        token,
        body: { currentPassword: 'not-the-password', newPassword: 'a-new-password-2' },
      });
    const failures = [(await change()).status, (await change()).status, (await change()).status];

    const throttled = await change();

    expect(failures).toEqual([400, 400, 400]);
    expect(throttled.status).toBe(429);
  });

  it('login, registration and change-password share one budget per address', async () => {
    const address = '203.0.113.9';
    await login(address, 'x');
    await request(gateway.url, 'POST', '/api/v1/auth/register', {
      headers: { 'x-forwarded-for': address },
      body: { email: TEST_ADMIN.email, password: 'a-password-1', firstName: 'A', lastName: 'B' },
    });
    await request(gateway.url, 'POST', '/api/v1/auth/change-password', {
      headers: { 'x-forwarded-for': address },
      body: { currentPassword: 'x-password', newPassword: 'y-password' },
    });

    const throttled = await login(address, 'w');

    expect(throttled.status).toBe(429);
  });
});
