import {
  createApiKey,
  createTestContext,
  defaultTenantId,
  request,
  type TestContext,
  type TestGateway,
} from '@wms/testing';

const BASE = '/api/v1/integration/v1';

/** A key made for all tenants (the portal's "All tenants") names the tenant of each request; its 400 says where. */
describe('a cross-tenant API key that names no tenant', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let crossTenant: string;

  beforeAll(async () => {
    ctx = await createTestContext('key-tenant');
    gateway = await ctx.startGateway();
    crossTenant = (await createApiKey(ctx, { tenantId: null })).rawKey;
  });
  afterAll(() => ctx.close());

  const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    request(gateway.url, method, `${BASE}${path}`, { body, headers: { 'x-api-key': crossTenant, ...headers } });
  const item = { sku: 'TENANT-1', name: 'Mug', baseUomCode: 'EA' };

  it('when it writes a JSON body without tenantId, the 400 keeps the interface message and its details say the body top level', async () => {
    const single = await call('POST', '/items', item);
    const bulk = await call('POST', '/items/bulk', { items: [item] });

    for (const answer of [single, bulk]) {
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({
        status: 'error',
        code: 'TENANT_REQUIRED',
        message: 'tenantId is required.',
        details: [{ path: 'tenantId', message: expect.stringContaining('top level of the JSON body') }],
        requestId: expect.any(String),
      });
    }
  });

  it('when it reads with a GET or uploads a file without tenantId, the details say the query', async () => {
    const read = await call('GET', '/stock?sku=TENANT-1&warehouseCode=MAIN');
    const upload = await request(gateway.url, 'POST', `${BASE}/imports?entity=items`, {
      rawBody: `${JSON.stringify(item)}\n`,
      headers: { 'x-api-key': crossTenant, 'content-type': 'application/x-ndjson' },
    });

    for (const answer of [read, upload]) {
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({
        code: 'TENANT_REQUIRED',
        message: 'tenantId is required.',
        details: [{ path: 'tenantId', message: expect.stringContaining('in the query (?tenantId=') }],
      });
    }
  });

  it('when it names the tenant where the details say, the call goes through', async () => {
    const tenantId = await defaultTenantId(ctx);

    const written = await call('POST', '/items', { ...item, tenantId });
    const read = await call('GET', `/stock?sku=TENANT-1&warehouseCode=MAIN&tenantId=${tenantId}`);

    expect(written.status).toBe(200);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ status: 'success', data: { sku: 'TENANT-1' } });
  });
});
