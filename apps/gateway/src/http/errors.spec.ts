import {
  createTestContext,
  request,
  TEST_ADMIN,
  type HttpResponse,
  type TestContext,
  type TestGateway,
} from '@wms/testing';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Every error outside the integration handlers: exactly these fields (plus details on validation), id in header and body. */
function expectPlainError(response: HttpResponse, statusCode: number, code: string): void {
  expect(response.status).toBe(statusCode);
  const { details, ...rest } = response.body as Record<string, unknown>;
  expect(rest).toEqual({
    statusCode,
    message: expect.any(String),
    error: expect.any(String),
    code,
    requestId: expect.stringMatching(UUID_V4),
  });
  if (details !== undefined) expect(Array.isArray(details)).toBe(true);
  expect(response.headers.get('x-request-id')).toBe(response.body.requestId);
}

describe('error answers and security headers of the gateway', () => {
  let ctx: TestContext;
  let gateway: TestGateway;

  beforeAll(async () => {
    ctx = await createTestContext('gateway-errors');
    gateway = await ctx.startGateway();
  });
  afterAll(() => ctx.close());

  it.each([
    ['400 malformed JSON', 400, 'INVALID_JSON', { method: 'POST', path: '/api/v1/auth/login', rawBody: '{"email":' }],
    ['400 validation', 400, 'VALIDATION_FAILED', { method: 'POST', path: '/api/v1/auth/login', body: { email: 1 } }],
    [
      '401 wrong password',
      401,
      'INVALID_CREDENTIALS',
      { method: 'POST', path: '/api/v1/auth/login', body: { email: TEST_ADMIN.email, password: 'wrong' } },
    ],
    ['401 missing token', 401, 'UNAUTHORIZED', { method: 'GET', path: '/api/v1/users' }],
    ['403 registration off', 403, 'REGISTRATION_DISABLED', { method: 'POST', path: '/api/v1/auth/register', body: {} }],
    ['404 unknown route', 404, 'NOT_FOUND', { method: 'GET', path: '/api/v1/no-such-thing' }],
  ] as const)(
    '%s has the shape { statusCode, message, error, code, requestId } and X-Request-Id equal to requestId',
    async (_name, status, code, call) => {
      const response = await request(gateway.url, call.method, call.path, {
        body: 'body' in call ? call.body : undefined,
        rawBody: 'rawBody' in call ? call.rawBody : undefined,
      });

      expectPlainError(response, status, code);
    },
  );

  it('a 503 (PostgreSQL unreachable) answers the same shape with Retry-After, without a stack, SQL or driver message', async () => {
    const broken = await ctx.startGateway({ DATABASE_URL: 'postgres://postgres@127.0.0.1:1/wms' });

    const response = await request(broken.url, 'POST', '/api/v1/auth/login', {
      body: { email: TEST_ADMIN.email, password: TEST_ADMIN.password },
    });

    expectPlainError(response, 503, 'DATABASE_UNAVAILABLE');
    expect(response.body.message).toBe('The database is not available right now; retry the request');
    expect(response.headers.get('retry-after')).toBe('1');
    expect(JSON.stringify(response.body)).not.toMatch(/ECONNREFUSED|Sequelize|SELECT|stack|at .*\.js/i);
  });

  it('a success answer carries X-Request-Id too', async () => {
    const response = await request(gateway.url, 'GET', '/health/live');

    expect(response.headers.get('x-request-id')).toMatch(UUID_V4);
  });

  it('a JSON answer under /api/ is not cached, framed or sniffed, and names no framework', async () => {
    const response = await request(gateway.url, 'GET', '/api/v1/integration/v1/stock?sku=A');

    expect(response.status).toBe(401);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('x-powered-by')).toBeNull();
  });

  it('a page keeps helmet’s headers for documents', async () => {
    const response = await request(gateway.url, 'GET', '/docs');

    expect(response.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(response.headers.get('cross-origin-opener-policy')).toBe('same-origin');
    expect(response.headers.get('x-powered-by')).toBeNull();
  });
});
