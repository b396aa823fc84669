import { createTestContext, loginAs, request, TEST_ADMIN, type TestContext, type TestGateway } from '@wms/testing';

interface TenantAnswer {
  id: string;
  code: string;
  name: string;
  sandbox: boolean;
}

describe('tenants: sandbox or not, chosen at creation', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let token: string;

  beforeAll(async () => {
    ctx = await createTestContext('tenants-routes');
    gateway = await ctx.startGateway();
    token = await loginAs(gateway.url, TEST_ADMIN.email, TEST_ADMIN.password);
  });
  afterAll(() => ctx.close());

  it('when a tenant is created with sandbox: true, its record says so, in the answer and in the list', async () => {
    const created = await request<TenantAnswer>(gateway.url, 'POST', '/api/v1/tenants', {
      token,
      body: { code: 'PLAY', name: 'Playground', sandbox: true },
    });

    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ code: 'PLAY', name: 'Playground', sandbox: true });
    const list = await request<TenantAnswer[]>(gateway.url, 'GET', '/api/v1/tenants', { token });
    expect(list.body.find((tenant) => tenant.code === 'PLAY')).toMatchObject({ sandbox: true });
    expect(list.body.find((tenant) => tenant.code === 'DEFAULT')).toMatchObject({ sandbox: false });
    expect(await ctx.services.tenants.isSandbox(created.body.id)).toBe(true);
  });

  it('when sandbox is left out, the tenant is not a sandbox; a sandbox that is not a boolean is 400', async () => {
    const plain = await request<TenantAnswer>(gateway.url, 'POST', '/api/v1/tenants', {
      token,
      body: { code: 'REAL', name: 'Real company' },
    });
    const bad = await request(gateway.url, 'POST', '/api/v1/tenants', {
      token,
      body: { code: 'ODD', name: 'Odd', sandbox: 'yes please' },
    });

    expect(plain.status).toBe(201);
    expect(plain.body.sandbox).toBe(false);
    expect(bad.status).toBe(400);
  });
});
