import { INVALID_API_KEY, MISSING_API_KEY } from '@wms/shared';
import { createApiKey, createTestContext, request, type TestContext, type TestGateway } from '@wms/testing';

describe('API-key guard', () => {
  let ctx: TestContext;
  let gateway: TestGateway;

  beforeAll(async () => {
    ctx = await createTestContext('api-key-guard');
    gateway = await ctx.startGateway();
  });
  afterAll(() => ctx.close());

  it('when no key is sent, it answers 401 Missing API key in the plain error shape', async () => {
    const response = await request(gateway.url, 'GET', '/api/v1/integration/v1/stock');

    expect(response.status).toBe(401);
    expect(response.body).toEqual({ statusCode: 401, message: MISSING_API_KEY, error: 'Unauthorized', requestId: expect.any(String) });
  });

  it('when a key with a wrong checksum is sent, it answers 401 Invalid, revoked, or expired API key', async () => {
    const { rawKey } = await createApiKey(ctx);
    const tampered = rawKey.slice(0, -1) + (rawKey.endsWith('a') ? 'b' : 'a');

    const response = await request(gateway.url, 'GET', '/api/v1/integration/v1/stock', { headers: { 'x-api-key': tampered } });

    expect(response.status).toBe(401);
    expect(response.body.message).toBe(INVALID_API_KEY);
  });

  it('when a valid key is sent as Authorization: ApiKey, the guard lets it through to the integration routes', async () => {
    const { rawKey } = await createApiKey(ctx);

    const response = await request(gateway.url, 'GET', '/api/v1/integration/v1/no-such-route', { headers: { authorization: `ApiKey ${rawKey}` } });

    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ status: 'error', code: 'NOT_FOUND' });
  });
});
