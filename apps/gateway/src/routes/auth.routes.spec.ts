import { createTestContext, createUser, request, TEST_ADMIN, type TestContext, type TestGateway } from '@wms/testing';
import { INVALID_CREDENTIALS } from '@wms/shared';

describe('POST /api/v1/auth/login', () => {
  let ctx: TestContext;
  let gateway: TestGateway;

  beforeAll(async () => {
    ctx = await createTestContext('auth-login');
    gateway = await ctx.startGateway();
  });
  afterAll(() => ctx.close());

  it('when the seeded admin logs in with a mixed-case, padded e-mail, it gets the user and both tokens', async () => {
    const response = await request(gateway.url, 'POST', '/api/v1/auth/login', {
      body: { email: `  ${TEST_ADMIN.email.toUpperCase()} `, password: TEST_ADMIN.password },
    });

    expect(response.status).toBe(200);
    expect(response.body.user).toMatchObject({ email: TEST_ADMIN.email, role: 'admin', tenantId: null });
    expect(response.body.user.passwordHash).toBeUndefined();
    expect(typeof response.body.accessToken).toBe('string');
    expect(typeof response.body.refreshToken).toBe('string');
  });

  it('when the e-mail is unknown or the password wrong, both get the same 401 message', async () => {
    const { user } = await createUser(ctx, { password: 'right-password' });

    const unknown = await request(gateway.url, 'POST', '/api/v1/auth/login', { body: { email: 'nobody@example.test', password: 'x' } });
    const wrong = await request(gateway.url, 'POST', '/api/v1/auth/login', { body: { email: user.email, password: 'wrong' } });

    expect(unknown.status).toBe(401);
    expect(wrong.status).toBe(401);
    expect(unknown.body.message).toBe(INVALID_CREDENTIALS);
    expect(wrong.body.message).toBe(INVALID_CREDENTIALS);
    expect(unknown.body).toEqual({ statusCode: 401, message: INVALID_CREDENTIALS, error: 'Unauthorized', requestId: expect.any(String) });
  });
});
