import { INVALID_API_KEY, MISSING_API_KEY, MISSING_SCOPE, generateRawKey } from '@wms/api-keys';
import {
  TEST_ADMIN,
  createApiKey,
  createTestContext,
  loginAs,
  request,
  type TestContext,
  type TestGateway,
} from '@wms/testing';

/**
 * The guard runs before any integration route, so these tests call a path under the integration API
 * that has no handler: a request the guard lets through then gets the integration envelope's 404,
 * one it refuses gets the guard's answer.
 */
const PASSING_PATH = '/api/v1/integration/v1/no-such-route';
const passed = { status: 'error', code: 'NOT_FOUND' };

function plainError(statusCode: number, message: string, error: string, code: string) {
  return { statusCode, message, error, code, requestId: expect.stringMatching(/^[0-9a-f-]{36}$/) };
}

describe('API-key guard', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let untrustingGateway: TestGateway;

  beforeAll(async () => {
    ctx = await createTestContext('api-key-guard');
    gateway = await ctx.startGateway();
    untrustingGateway = await ctx.startGateway({ TRUST_PROXY: 'false' });
  });
  afterAll(() => ctx.close());

  const call = (headers: Record<string, string>, method = 'GET', base = gateway.url) =>
    request(base, method, PASSING_PATH, { headers });

  describe('steps 1-3: extract and verify', () => {
    it('when no key is sent, it answers 401 Missing API key in the plain error shape', async () => {
      const response = await call({});

      expect(response.status).toBe(401);
      expect(response.body).toEqual(plainError(401, MISSING_API_KEY, 'Unauthorized', 'MISSING_API_KEY'));
    });

    it('when a key with a wrong checksum is sent, it answers 401 Invalid, revoked, or expired API key', async () => {
      const { rawKey } = await createApiKey(ctx);
      const tampered = rawKey.slice(0, -1) + (rawKey.endsWith('a') ? 'b' : 'a');

      const response = await call({ 'x-api-key': tampered });

      expect(response.status).toBe(401);
      expect(response.body).toEqual(plainError(401, INVALID_API_KEY, 'Unauthorized', 'INVALID_API_KEY'));
    });

    it('when a well-formed key that was never issued is sent, it answers 401 with the same message', async () => {
      const response = await call({ 'x-api-key': generateRawKey(), 'x-forwarded-for': '198.51.100.1' });

      expect(response.status).toBe(401);
      expect(response.body).toEqual(plainError(401, INVALID_API_KEY, 'Unauthorized', 'INVALID_API_KEY'));
    });

    it('when a valid key is sent as X-API-Key or as Authorization: ApiKey, the guard lets it through', async () => {
      const { rawKey } = await createApiKey(ctx);

      const viaHeader = await call({ 'x-api-key': rawKey });
      const viaAuthorization = await call({ authorization: `ApiKey ${rawKey}` });

      expect(viaHeader.status).toBe(404);
      expect(viaHeader.body).toMatchObject(passed);
      expect(viaAuthorization.status).toBe(404);
      expect(viaAuthorization.body).toMatchObject(passed);
    });

    it('when an expired key calls, it gets 401', async () => {
      const { rawKey } = await createApiKey(ctx, { expiresAt: new Date(Date.now() - 1_000) });

      const response = await call({ 'x-api-key': rawKey });

      expect(response.status).toBe(401);
      expect(response.body).toEqual(plainError(401, INVALID_API_KEY, 'Unauthorized', 'INVALID_API_KEY'));
    });

    it('when a key is revoked on one gateway, another gateway that has it cached refuses it within 1 second', async () => {
      const other = await ctx.startGateway();
      const token = await loginAs(gateway.url, TEST_ADMIN.email, TEST_ADMIN.password);
      const { id, rawKey } = await createApiKey(ctx);
      expect((await call({ 'x-api-key': rawKey }, 'GET', other.url)).status).toBe(404);

      const revoked = await request(gateway.url, 'POST', `/api/v1/api-keys/${id}/revoke`, { token });
      const deadline = Date.now() + 1_000;
      let status = 0;
      while (Date.now() < deadline) {
        status = (await call({ 'x-api-key': rawKey }, 'GET', other.url)).status;
        if (status === 401) break;
      }

      expect(revoked.status).toBe(200);
      expect(status).toBe(401);
    });

    it('when a revoked key is activated again, it is accepted again', async () => {
      const token = await loginAs(gateway.url, TEST_ADMIN.email, TEST_ADMIN.password);
      const { id, rawKey } = await createApiKey(ctx);
      await request(gateway.url, 'POST', `/api/v1/api-keys/${id}/revoke`, { token });
      expect((await call({ 'x-api-key': rawKey })).status).toBe(401);

      await request(gateway.url, 'POST', `/api/v1/api-keys/${id}/activate`, { token });
      const response = await call({ 'x-api-key': rawKey });

      expect(response.status).toBe(404);
    });
  });

  describe('step 4: scopes', () => {
    it('when a read-only key writes, it gets 401 API key missing required scope(s)', async () => {
      const { rawKey } = await createApiKey(ctx, { scopes: ['read'] });

      const read = await call({ 'x-api-key': rawKey }, 'GET');
      const write = await call({ 'x-api-key': rawKey }, 'POST');

      expect(read.status).toBe(404);
      expect(write.status).toBe(401);
      expect(write.body).toEqual(plainError(401, MISSING_SCOPE, 'Unauthorized', 'MISSING_SCOPE'));
    });

    it('when a write-only key reads, it gets 401 missing scope', async () => {
      const { rawKey } = await createApiKey(ctx, { scopes: ['write'] });

      const response = await call({ 'x-api-key': rawKey }, 'GET');

      expect(response.body).toEqual(plainError(401, MISSING_SCOPE, 'Unauthorized', 'MISSING_SCOPE'));
    });

    it('when a key has only a label scope such as orders, it may neither read nor write', async () => {
      const { rawKey } = await createApiKey(ctx, { scopes: ['orders'] });

      expect((await call({ 'x-api-key': rawKey }, 'GET')).status).toBe(401);
      expect((await call({ 'x-api-key': rawKey }, 'POST')).status).toBe(401);
    });

    it('when a key has the admin scope, it passes both read and write checks', async () => {
      const { rawKey } = await createApiKey(ctx, { scopes: ['admin'] });

      expect((await call({ 'x-api-key': rawKey }, 'GET')).status).toBe(404);
      expect((await call({ 'x-api-key': rawKey }, 'POST')).status).toBe(404);
    });

    it("the scope is checked before the IP whitelist (the interface's order): a read key writing from outside its whitelist gets 401, reading from there 403", async () => {
      const { rawKey } = await createApiKey(ctx, { scopes: ['read'], ipWhitelist: ['10.0.0.1'] });

      const write = await call({ 'x-api-key': rawKey }, 'POST');
      const read = await call({ 'x-api-key': rawKey }, 'GET');

      expect(write.body).toEqual(plainError(401, MISSING_SCOPE, 'Unauthorized', 'MISSING_SCOPE'));
      expect(read.body).toEqual(
        plainError(403, "Client IP 127.0.0.1 is not in the API key's IP whitelist", 'Forbidden', 'IP_NOT_ALLOWED'),
      );
    });
  });

  describe('step 5: IP whitelist', () => {
    it('when the loopback caller is on the whitelist, it passes; when it is not, it gets 403 naming its address', async () => {
      const allowed = await createApiKey(ctx, { ipWhitelist: ['127.0.0.1'] });
      const other = await createApiKey(ctx, { ipWhitelist: ['192.0.2.10'] });

      const ok = await call({ 'x-api-key': allowed.rawKey });
      const refused = await call({ 'x-api-key': other.rawKey });

      expect(ok.status).toBe(404);
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual(
        plainError(403, "Client IP 127.0.0.1 is not in the API key's IP whitelist", 'Forbidden', 'IP_NOT_ALLOWED'),
      );
    });

    it('when a trusted proxy forwards the client address, IPv4 CIDR ranges decide on it', async () => {
      const { rawKey } = await createApiKey(ctx, { ipWhitelist: ['10.1.2.0/24'] });

      const inside = await call({ 'x-api-key': rawKey, 'x-forwarded-for': '10.1.2.77' });
      const outside = await call({ 'x-api-key': rawKey, 'x-forwarded-for': '10.1.3.1' });

      expect(inside.status).toBe(404);
      expect(outside.status).toBe(403);
      expect(outside.body.message).toBe("Client IP 10.1.3.1 is not in the API key's IP whitelist");
    });

    it('when the client address is IPv6, exact entries and IPv6 CIDR ranges match it', async () => {
      const { rawKey } = await createApiKey(ctx, { ipWhitelist: ['2001:db8:abcd::/48', '2001:db8:ffff::1'] });

      const inRange = await call({ 'x-api-key': rawKey, 'x-forwarded-for': '2001:db8:abcd:12::5' });
      const exact = await call({ 'x-api-key': rawKey, 'x-forwarded-for': '2001:db8:ffff::1' });
      const outside = await call({ 'x-api-key': rawKey, 'x-forwarded-for': '2001:db9::1' });

      expect(inRange.status).toBe(404);
      expect(exact.status).toBe(404);
      expect(outside.status).toBe(403);
    });

    it('when the client address is IPv4-mapped IPv6, it is matched as its IPv4 address', async () => {
      const { rawKey } = await createApiKey(ctx, { ipWhitelist: ['203.0.113.0/28'] });

      const mapped = await call({ 'x-api-key': rawKey, 'x-forwarded-for': '::ffff:203.0.113.9' });

      expect(mapped.status).toBe(404);
    });

    it('when an untrusted peer sends X-Forwarded-For, the header changes nothing: its own address is checked', async () => {
      const { rawKey } = await createApiKey(ctx, { ipWhitelist: ['10.9.9.9'] });

      const spoofed = await call({ 'x-api-key': rawKey, 'x-forwarded-for': '10.9.9.9' }, 'GET', untrustingGateway.url);

      expect(spoofed.status).toBe(403);
      expect(spoofed.body.message).toBe("Client IP 127.0.0.1 is not in the API key's IP whitelist");
    });

    it('when TRUST_PROXY trusts loopback, the address the loopback proxy forwarded is the one checked', async () => {
      const { rawKey } = await createApiKey(ctx, { ipWhitelist: ['10.9.9.9'] });

      const forwarded = await call({ 'x-api-key': rawKey, 'x-forwarded-for': '10.9.9.9' });

      expect(forwarded.status).toBe(404);
    });
  });

  describe('step 6: allowed origins', () => {
    it('when an Origin is sent, only listed origins pass; a request without Origin always passes', async () => {
      const { rawKey } = await createApiKey(ctx, {
        allowedOrigins: ['https://shop.example.com', 'http://localhost:8080'],
      });

      const listed = await call({ 'x-api-key': rawKey, origin: 'https://shop.example.com' });
      const listedWithPort = await call({ 'x-api-key': rawKey, origin: 'http://localhost:8080' });
      const withoutOrigin = await call({ 'x-api-key': rawKey });
      const other = await call({ 'x-api-key': rawKey, origin: 'https://evil.example.com' });

      expect(listed.status).toBe(404);
      expect(listedWithPort.status).toBe(404);
      expect(withoutOrigin.status).toBe(404);
      expect(other.status).toBe(403);
      expect(other.body).toEqual(
        plainError(
          403,
          'Origin https://evil.example.com is not allowed for this API key',
          'Forbidden',
          'ORIGIN_NOT_ALLOWED',
        ),
      );
    });

    it('when the key lists no origins, any Origin passes', async () => {
      const { rawKey } = await createApiKey(ctx);

      const response = await call({ 'x-api-key': rawKey, origin: 'https://anywhere.example.org' });

      expect(response.status).toBe(404);
    });
  });

  describe('per-address throttling of unknown keys', () => {
    it('when one address keeps sending unknown keys, it gets 429 with retryAfter, while other addresses are unaffected', async () => {
      const throttled = await ctx.startGateway({ API_KEY_FAILURES_PER_IP_PER_MINUTE: '3' });
      const attacker = { 'x-forwarded-for': '198.51.100.66' };
      const unknown = () =>
        request(throttled.url, 'GET', PASSING_PATH, { headers: { ...attacker, 'x-api-key': generateRawKey() } });

      const first = [await unknown(), await unknown(), await unknown()];
      const fourth = await unknown();
      const { rawKey } = await createApiKey(ctx);
      const bystander = await request(throttled.url, 'GET', PASSING_PATH, {
        headers: { 'x-forwarded-for': '198.51.100.67', 'x-api-key': rawKey },
      });

      expect(first.map((response) => response.status)).toEqual([401, 401, 401]);
      expect(fourth.status).toBe(429);
      expect(fourth.body).toEqual({
        statusCode: 429,
        message: expect.stringMatching(
          /^Too many invalid API key attempts from this address\. Retry in \d+ seconds\.$/,
        ),
        error: 'Too Many Requests',
        code: 'TOO_MANY_INVALID_KEYS',
        retryAfter: expect.any(Number),
        requestId: expect.any(String),
      });
      expect(fourth.headers.get('retry-after')).toBe(String(fourth.body.retryAfter));
      expect(bystander.status).toBe(404);
    });

    it('when a valid key sends many requests at once from one address, none is refused by the throttle', async () => {
      const throttled = await ctx.startGateway({ API_KEY_FAILURES_PER_IP_PER_MINUTE: '3' });
      const { rawKey } = await createApiKey(ctx);

      const responses = await Promise.all(
        Array.from({ length: 40 }, () =>
          request(throttled.url, 'GET', PASSING_PATH, {
            headers: { 'x-forwarded-for': '198.51.100.70', 'x-api-key': rawKey },
          }),
        ),
      );

      expect(responses.map((response) => response.status)).toEqual(Array(40).fill(404));
    });
  });
});
