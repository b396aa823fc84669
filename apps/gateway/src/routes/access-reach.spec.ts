import type { AdminModule } from '@wms/identity';
import {
  createApiKey,
  createTenantWithWarehouse,
  createTestContext,
  createUser,
  loginAs,
  request,
  TEST_ADMIN,
  type TestContext,
  type TestGateway,
} from '@wms/testing';

interface Refusal {
  code?: string;
  message: string;
}

/** A user creates API keys and webhook subscriptions that reach only what its own modules reach. */
describe('what keys and subscriptions a user may create', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let adminToken: string;
  let tenantId: string;

  beforeAll(async () => {
    ctx = await createTestContext('access-reach', { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
    gateway = await ctx.startGateway();
    adminToken = await loginAs(gateway.url, TEST_ADMIN.email, TEST_ADMIN.password);
    tenantId = (await createTenantWithWarehouse(ctx)).tenant.id;
  });
  afterAll(() => ctx.close());

  async function manager(read: AdminModule[], write: AdminModule[] = read): Promise<string> {
    const { user, password } = await createUser(ctx, {
      role: 'manager',
      tenantId,
      adminModules: read,
      adminModulesWrite: write,
    });
    return loginAs(gateway.url, user.email, password);
  }

  const createKey = (token: string, scopes: string[]) =>
    request<Refusal & { id: string }>(gateway.url, 'POST', '/api/v1/api-keys', {
      token,
      body: { name: `key ${scopes.join(' ')}`, scopes },
    });
  const subscribe = (token: string, events: string[]) =>
    request<Refusal & { id: string }>(gateway.url, 'POST', '/api/v1/webhooks', {
      token,
      body: { url: 'http://127.0.0.1:9/hook', events },
    });

  describe('API keys', () => {
    it('a manager holding only api-keys cannot create a write or a read key; the 403 names what is missing', async () => {
      const token = await manager(['api-keys']);

      const write = await createKey(token, ['write']);
      const read = await createKey(token, ['read']);

      expect([write.status, read.status]).toEqual([403, 403]);
      expect([write.body.code, read.body.code]).toEqual(['SCOPE_BEYOND_MODULES', 'SCOPE_BEYOND_MODULES']);
      expect(write.body.message).toContain('write on warehouses');
      expect(write.body.message).toContain('write on inbound');
      expect(write.body.message).toContain('write on orders');
      expect(read.body.message).toContain('read on inbound');
      expect(read.body.message).toContain('read on orders');
      expect(read.body.message).toContain('read on inventory');
      expect(await ctx.services.apiKeys.list({ userId: null, tenantId })).toEqual([]);
    });

    it('a manager with write on warehouses, inbound and orders creates a write key; with read on inbound, orders and inventory a read key', async () => {
      const writer = await manager(['api-keys', 'warehouses', 'inbound', 'orders']);
      const reader = await manager(['api-keys', 'inbound', 'orders', 'inventory'], ['api-keys']);

      const write = await createKey(writer, ['write']);
      const read = await createKey(reader, ['read']);
      const readByWriter = await createKey(writer, ['read']);

      expect([write.status, read.status]).toEqual([201, 201]);
      expect(readByWriter.status).toBe(403);
      expect(readByWriter.body.code).toBe('SCOPE_BEYOND_MODULES');
      expect(readByWriter.body.message).toContain('read on inventory');
    });

    it('read access to a module does not grant the write scope', async () => {
      const token = await manager(['api-keys', 'warehouses', 'inbound', 'orders'], ['api-keys']);

      const write = await createKey(token, ['write']);

      expect(write.status).toBe(403);
      expect(write.body.code).toBe('SCOPE_BEYOND_MODULES');
      expect(write.body.message).toContain('write on warehouses');
    });

    it('only an admin creates a key with the admin scope; labels without meaning need nothing', async () => {
      const token = await manager(['api-keys', 'warehouses', 'inbound', 'orders', 'inventory']);

      const byManager = await createKey(token, ['admin']);
      const label = await createKey(token, ['reporting']);
      const byAdmin = await request(gateway.url, 'POST', '/api/v1/api-keys', {
        token: adminToken,
        body: { name: 'admin key', scopes: ['admin'], tenantId },
      });

      expect(byManager.status).toBe(403);
      expect(byManager.body.code).toBe('SCOPE_BEYOND_MODULES');
      expect(byManager.body.message).toContain('admin');
      expect([label.status, byAdmin.status]).toEqual([201, 201]);
    });

    it("editing a key's scopes is held to the same rule; a key within reach takes other edits", async () => {
      const token = await manager(['api-keys', 'inbound', 'orders', 'inventory'], ['api-keys']);
      const key = await createApiKey(ctx, { tenantId, scopes: ['read'] });

      const widen = await request<Refusal>(gateway.url, 'PATCH', `/api/v1/api-keys/${key.id}`, {
        token,
        body: { scopes: ['read', 'write'] },
      });
      const rename = await request(gateway.url, 'PATCH', `/api/v1/api-keys/${key.id}`, {
        token,
        body: { name: 'renamed' },
      });

      expect(widen.status).toBe(403);
      expect(widen.body.code).toBe('SCOPE_BEYOND_MODULES');
      expect(widen.body.message).toContain('write on orders');
      expect(rename.status).toBe(200);
      expect((await ctx.services.apiKeys.get(key.id, { userId: null, tenantId: null })).scopes).toEqual(['read']);
    });
  });

  describe('webhook subscriptions', () => {
    it('a manager holding only webhooks cannot subscribe to stock.adjusted; the 403 names inventory', async () => {
      const token = await manager(['webhooks']);

      const response = await subscribe(token, ['stock.adjusted']);

      expect(response.status).toBe(403);
      expect(response.body.code).toBe('EVENTS_BEYOND_MODULES');
      expect(response.body.message).toContain('read on inventory (stock.adjusted)');
    });

    it.each([
      ['asn.received', 'inbound'],
      ['asn.completed', 'inbound'],
      ['order.allocated', 'orders'],
      ['order.shipped', 'orders'],
      ['order.cancelled', 'orders'],
      ['stock.adjusted', 'inventory'],
      ['cyclecount.variance', 'inventory'],
      ['return.received', 'inbound'],
      ['return.completed', 'inbound'],
      ['import.completed', 'warehouses'],
    ] as Array<[string, AdminModule]>)('%s needs read on %s', async (event, module) => {
      const without = await manager(['webhooks']);
      const holding = await manager(['webhooks', module], ['webhooks']);

      const refused = await subscribe(without, [event]);
      const allowed = await subscribe(holding, [event]);

      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe('EVENTS_BEYOND_MODULES');
      expect(allowed.status).toBe(201);
    });

    it('* needs read on every module that owns an event; webhook.disabled needs only webhooks', async () => {
      const partial = await manager(['webhooks', 'inbound', 'orders']);
      const full = await manager(['webhooks', 'inbound', 'orders', 'inventory', 'warehouses'], ['webhooks']);

      const wildcard = await subscribe(partial, ['*']);
      const disabledOnly = await subscribe(partial, ['webhook.disabled']);
      const wildcardFull = await subscribe(full, ['*']);

      expect(wildcard.status).toBe(403);
      expect(wildcard.body.code).toBe('EVENTS_BEYOND_MODULES');
      expect(wildcard.body.message).toContain('read on inventory');
      expect([disabledOnly.status, wildcardFull.status]).toEqual([201, 201]);
    });

    it("editing a subscription's events is held to the same rule", async () => {
      const token = await manager(['webhooks', 'orders']);
      const created = await subscribe(token, ['order.shipped']);

      const widen = await request<Refusal>(gateway.url, 'PATCH', `/api/v1/webhooks/${created.body.id}`, {
        token,
        body: { events: ['order.shipped', 'asn.received'] },
      });
      const described = await request(gateway.url, 'PATCH', `/api/v1/webhooks/${created.body.id}`, {
        token,
        body: { description: 'shipping feed' },
      });

      expect(created.status).toBe(201);
      expect(widen.status).toBe(403);
      expect(widen.body.code).toBe('EVENTS_BEYOND_MODULES');
      expect(widen.body.message).toContain('read on inbound (asn.received)');
      expect(described.status).toBe(200);
    });

    it('an admin subscribes to every event', async () => {
      const response = await request(gateway.url, 'POST', '/api/v1/webhooks', {
        token: adminToken,
        body: { url: 'http://127.0.0.1:9/hook', events: ['*', 'webhook.disabled'] },
      });

      expect(response.status).toBe(201);
    });
  });
});
