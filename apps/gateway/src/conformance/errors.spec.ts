import {
  INTEGRATION,
  UUID_V4,
  a,
  createTestContext,
  integratorOf,
  pushMasterData,
  request,
  type Integrator,
  type TestContext,
  type TestGateway,
} from '@wms/testing';

/** The integration envelope of an error: `status`, `code`, `message`, `requestId` (UUID v4). */
const envelope = (code: string, message: unknown = a.string()) =>
  a.object({ status: 'error', code, message, requestId: expect.stringMatching(UUID_V4) });

/** Section 7 of the interface: each error's status, code or message and its shape. */
describe('interface 7: errors', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let integrator: Integrator;

  /** A key made in the admin API with the fields the interface's admin form sets. */
  const keyWith = async (fields: Record<string, unknown>) => {
    const created = await request(gateway.url, 'POST', '/api/v1/api-keys', {
      token: integrator.adminToken,
      body: { name: 'errors', scopes: ['read', 'write'], tenantId: integrator.tenantId, ...fields },
    });
    expect(created.status).toBe(201);
    return { id: String(created.body.id), rawKey: String(created.body.rawKey) };
  };
  const callWith = (
    rawKey: string,
    method: string,
    path: string,
    headers: Record<string, string> = {},
    body?: unknown,
  ) => request(gateway.url, method, `${INTEGRATION}${path}`, { body, headers: { 'x-api-key': rawKey, ...headers } });
  const order = (sku: string, warehouseCode = 'WH1') => ({
    warehouseCode,
    customerCode: 'CUST',
    requiredDate: '2030-03-01',
    shipTo: { name: 'Jane Doe', address: '1 Main St' },
    referenceNo: `SO-${sku}-${warehouseCode}`,
    lines: [{ lineNo: 1, sku, uomCode: 'EA', qtyOrdered: 1 }],
  });

  beforeAll(async () => {
    ctx = await createTestContext('conformance-errors');
    gateway = await ctx.startGateway();
    integrator = await integratorOf(gateway.url, 'ERRORS');
    await pushMasterData(integrator);
  });
  afterAll(() => ctx.close());

  it('when a body fails validation, it is 400 VALIDATION_FAILED in the integration envelope', async () => {
    const invalid = await integrator.call('POST', '/items', { sku: 'NO-NAME' });

    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual(envelope('VALIDATION_FAILED'));
  });

  it('when a document names an unknown SKU or warehouse, it is 400 with the message the interface gives', async () => {
    const sku = await integrator.call('POST', '/orders', order('GHOST'));
    const warehouse = await integrator.call('POST', '/orders', order('PLAIN', 'NOWHERE'));

    expect(sku.status).toBe(400);
    expect(sku.body).toEqual(envelope(a.string(), 'Item SKU GHOST not found'));
    expect(warehouse.status).toBe(400);
    expect(warehouse.body).toEqual(envelope(a.string(), 'Warehouse code NOWHERE not found'));
  });

  it('when a key bound to no tenant sends a body without tenantId, it is 400 tenantId is required.', async () => {
    const created = await request(gateway.url, 'POST', '/api/v1/api-keys', {
      token: integrator.adminToken,
      body: { name: 'cross-tenant', scopes: ['write'] },
    });

    const answer = await callWith(
      String(created.body.rawKey),
      'POST',
      '/items',
      {},
      { sku: 'X', name: 'X', baseUomCode: 'EA' },
    );

    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(envelope(a.string(), 'tenantId is required.'));
  });

  it('when the key is missing, unknown, revoked or lacks the scope, it is 401 with the message the interface gives', async () => {
    const readOnly = await keyWith({ scopes: ['read'] });
    const revoked = await keyWith({});
    await request(gateway.url, 'POST', `/api/v1/api-keys/${revoked.id}/revoke`, { token: integrator.adminToken });

    const missing = await request(gateway.url, 'GET', `${INTEGRATION}/stock?sku=PLAIN&warehouseCode=WH1`);
    const unknown = await callWith(`wms_${'x'.repeat(40)}`, 'GET', '/stock?sku=PLAIN&warehouseCode=WH1');
    const afterRevoke = await callWith(revoked.rawKey, 'GET', '/stock?sku=PLAIN&warehouseCode=WH1');
    const scope = await callWith(readOnly.rawKey, 'POST', '/items', {}, { sku: 'X', name: 'X', baseUomCode: 'EA' });

    expect([missing.status, unknown.status, afterRevoke.status, scope.status]).toEqual([401, 401, 401, 401]);
    expect(missing.body.message).toBe('Missing API key');
    expect(unknown.body.message).toBe('Invalid, revoked, or expired API key');
    expect(afterRevoke.body.message).toBe('Invalid, revoked, or expired API key');
    expect(scope.body.message).toBe('API key missing required scope(s)');
  });

  it('when the IP is outside the whitelist or the Origin outside the allowed ones, it is 403 { statusCode, message }', async () => {
    const whitelisted = await keyWith({ ipWhitelist: ['203.0.113.7'] });
    const originBound = await keyWith({ allowedOrigins: ['https://shop.example.com'] });

    const ip = await callWith(whitelisted.rawKey, 'GET', '/stock?sku=PLAIN&warehouseCode=WH1');
    const origin = await callWith(originBound.rawKey, 'GET', '/stock?sku=PLAIN&warehouseCode=WH1', {
      origin: 'https://elsewhere.example.com',
    });
    const noOrigin = await callWith(originBound.rawKey, 'GET', '/stock?sku=PLAIN&warehouseCode=WH1');

    expect(ip.status).toBe(403);
    expect(ip.body).toEqual(a.object({ statusCode: 403, message: expect.stringMatching(/whitelist/i) }));
    expect(origin.status).toBe(403);
    expect(origin.body).toEqual(a.object({ statusCode: 403, message: expect.stringMatching(/origin/i) }));
    expect(noOrigin.status).toBe(200);
  });

  it('when an inquiry finds nothing, it is 404 naming the order or ASN', async () => {
    const orderMiss = await integrator.call('GET', '/orders/SO-NONE');
    const asnMiss = await integrator.call('GET', '/asn/ASN-NONE');

    expect(orderMiss.status).toBe(404);
    expect(orderMiss.body).toEqual(envelope(a.string(), 'Order SO-NONE not found'));
    expect(asnMiss.status).toBe(404);
    expect(asnMiss.body).toEqual(envelope(a.string(), 'ASN ASN-NONE not found'));
  });

  it('when a key passes its rateLimitPerMinute, it is 429 with error, retryAfter, Retry-After and the rate-limit headers', async () => {
    const limited = await keyWith({ rateLimitPerMinute: 2 });
    const stock = () => callWith(limited.rawKey, 'GET', '/stock?sku=PLAIN&warehouseCode=WH1');

    const first = await stock();
    await stock();
    const third = await stock();

    expect(first.headers.get('x-ratelimit-limit')).toBe('2');
    expect(first.headers.get('x-ratelimit-remaining')).toBe('1');
    expect(third.status).toBe(429);
    expect(third.body).toEqual(
      a.object({ statusCode: 429, message: a.string(), error: 'Too Many Requests', retryAfter: a.integer() }),
    );
    expect(third.headers.get('retry-after')).toBe(String(third.body.retryAfter));
  });
});
