import { randomUUID } from 'node:crypto';
import type { AdminModule } from '@wms/identity';
import { createWebhookDeliveryQueue } from '@wms/webhooks';
import {
  appendEvents,
  createApiKey,
  createSubscription,
  createTenantWithWarehouse,
  createTestContext,
  createUser,
  drainRelay,
  loginAs,
  relayOver,
  request,
  sampleEvents,
  type TestContext,
  type TestGateway,
} from '@wms/testing';

/** An admin API error answer is { statusCode, message, error, code }: a refusal is told apart by its code. */
interface Answer {
  message?: string;
  code?: string;
  events?: Array<{ event: string }>;
  tested?: number;
}

/** Every action on a key or a subscription needs the reach its create would need (docs/security.md). */
describe('what a user may do to keys and subscriptions that reach beyond its modules', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let tenantId: string;
  let otherTenantId: string;

  beforeAll(async () => {
    ctx = await createTestContext('access-reach-actions', { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
    gateway = await ctx.startGateway();
    tenantId = (await createTenantWithWarehouse(ctx)).tenant.id;
    otherTenantId = (await createTenantWithWarehouse(ctx)).tenant.id;
  });
  afterAll(() => ctx.close());

  async function manager(read: AdminModule[], write: AdminModule[] = read, bound: string | null = tenantId) {
    const { user, password } = await createUser(ctx, {
      role: 'manager',
      tenantId: bound,
      adminModules: read,
      adminModulesWrite: write,
    });
    return loginAs(gateway.url, user.email, password);
  }

  const call = (token: string, method: string, path: string, body?: unknown) =>
    request<Answer>(gateway.url, method, path, { token, ...(body === undefined ? {} : { body }) });

  describe('API keys', () => {
    const keyActions: Array<[string, string, string, unknown]> = [
      ['PATCH name', 'PATCH', '', { name: 'taken over' }],
      ['PATCH description', 'PATCH', '', { description: 'taken over' }],
      ['PATCH ipWhitelist', 'PATCH', '', { ipWhitelist: ['0.0.0.0/0'] }],
      ['PATCH allowedOrigins', 'PATCH', '', { allowedOrigins: ['https://evil.example'] }],
      ['PATCH expiresAt', 'PATCH', '', { expiresAt: null }],
      ['PATCH rateLimitPerMinute', 'PATCH', '', { rateLimitPerMinute: 0 }],
      ['roll', 'POST', '/roll', { graceSeconds: 604800 }],
      ['revoke', 'POST', '/revoke', undefined],
      ['activate', 'POST', '/activate', undefined],
      ['revoke-previous', 'POST', '/revoke-previous', undefined],
    ];

    it.each(keyActions)(
      'a manager holding only api-keys gets 403 SCOPE_BEYOND_MODULES for %s on a read/write key, which stays as it was',
      async (_action, method, suffix, body) => {
        const token = await manager(['api-keys']);
        const key = await createApiKey(ctx, { tenantId, scopes: ['read', 'write'], ipWhitelist: ['10.0.0.0/8'] });
        const before = await ctx.services.apiKeys.get(key.id, { userId: null, tenantId: null });

        const answer = await call(token, method, `/api/v1/api-keys/${key.id}${suffix}`, body);

        expect(answer.status).toBe(403);
        expect(answer.body.code).toBe('SCOPE_BEYOND_MODULES');
        expect(answer.body.message).toContain('An API key with these scopes would reach beyond your modules');
        expect(answer.body.message).toContain('write on warehouses');
        expect(await ctx.services.apiKeys.get(key.id, { userId: null, tenantId: null })).toEqual(before);
      },
    );

    it('a manager whose modules reach the read/write scopes rolls, edits, revokes and activates the key', async () => {
      const token = await manager(['api-keys', 'warehouses', 'inbound', 'orders', 'inventory']);
      const key = await createApiKey(ctx, { tenantId, scopes: ['read', 'write'] });

      const rolled = await call(token, 'POST', `/api/v1/api-keys/${key.id}/roll`, { graceSeconds: 60 });
      const ended = await call(token, 'POST', `/api/v1/api-keys/${key.id}/revoke-previous`);
      const renamed = await call(token, 'PATCH', `/api/v1/api-keys/${key.id}`, { name: 'renamed' });
      const revoked = await call(token, 'POST', `/api/v1/api-keys/${key.id}/revoke`);
      const activated = await call(token, 'POST', `/api/v1/api-keys/${key.id}/activate`);

      expect([rolled.status, ended.status, renamed.status, revoked.status, activated.status]).toEqual([
        200, 200, 200, 200, 200,
      ]);
    });

    it('a key with the admin scope is changed by an admin only', async () => {
      const token = await manager(['api-keys', 'warehouses', 'inbound', 'orders', 'inventory']);
      const key = await createApiKey(ctx, { tenantId, scopes: ['admin'] });

      const renamed = await call(token, 'PATCH', `/api/v1/api-keys/${key.id}`, { name: 'renamed' });

      expect(renamed.status).toBe(403);
      expect(renamed.body.code).toBe('SCOPE_BEYOND_MODULES');
      expect(renamed.body.message).toContain('the admin role (scope admin)');
    });

    it("another tenant's key stays a 404 for a tenant-bound manager, whatever its scopes", async () => {
      const token = await manager(['api-keys']);
      const key = await createApiKey(ctx, { tenantId: otherTenantId, scopes: ['read', 'write'] });

      const answer = await call(token, 'POST', `/api/v1/api-keys/${key.id}/roll`, {});

      expect(answer.status).toBe(404);
    });
  });

  describe('webhook subscriptions', () => {
    const subscriptionActions: Array<[string, string, string, unknown]> = [
      ['PATCH url', 'PATCH', '', { url: 'http://127.0.0.1:9/elsewhere' }],
      ['PATCH description', 'PATCH', '', { description: 'taken over' }],
      ['PATCH active', 'PATCH', '', { active: false }],
      ['PATCH filter', 'PATCH', '', { filter: { sku: 'SKU-1' } }],
      ['PATCH ordered', 'PATCH', '', { ordered: true }],
      ['rotate-secret', 'POST', '/rotate-secret', { graceSeconds: 0 }],
      ['replay', 'POST', '/replay', { eventId: randomUUID() }],
      ['recover', 'POST', '/recover', { since: new Date(Date.now() - 3_600_000).toISOString() }],
      ['redeliver', 'POST', `/deliveries/${randomUUID()}/redeliver`, undefined],
      ['test', 'POST', '/test', undefined],
      ['enable', 'POST', '/enable', undefined],
      ['delete', 'DELETE', '', undefined],
    ];

    it.each(subscriptionActions)(
      "a manager holding only webhooks gets 403 EVENTS_BEYOND_MODULES for %s on an admin's * subscription, which stays as it was",
      async (_action, method, suffix, body) => {
        const token = await manager(['webhooks']);
        const subscription = await createSubscription(ctx, { url: 'http://127.0.0.1:9/hook', tenantId });
        const before = await ctx.services.webhooks.get(subscription.id, { tenantId: null });

        const answer = await call(token, method, `/api/v1/webhooks/${subscription.id}${suffix}`, body);

        expect(answer.status).toBe(403);
        expect(answer.body.code).toBe('EVENTS_BEYOND_MODULES');
        expect(answer.body.message).toContain('A subscription to these events would reach beyond your modules');
        expect(answer.body.message).toContain('read on inventory');
        expect(await ctx.services.webhooks.get(subscription.id, { tenantId: null })).toEqual(before);
      },
    );

    it('a manager who reads every event module changes, tests and rotates the * subscription', async () => {
      const token = await manager(['webhooks', 'inbound', 'orders', 'inventory', 'warehouses'], ['webhooks']);
      const subscription = await createSubscription(ctx, { url: 'http://127.0.0.1:9/hook', tenantId });

      const patched = await call(token, 'PATCH', `/api/v1/webhooks/${subscription.id}`, { description: 'mine' });
      const rotated = await call(token, 'POST', `/api/v1/webhooks/${subscription.id}/rotate-secret`, {});
      const tested = await call(token, 'POST', `/api/v1/webhooks/${subscription.id}/test`);

      expect([patched.status, rotated.status, tested.status]).toEqual([200, 200, 202]);
    });

    it('a subscription within reach is changed by a manager holding just its modules', async () => {
      const token = await manager(['webhooks', 'orders'], ['webhooks']);
      const subscription = await createSubscription(ctx, {
        url: 'http://127.0.0.1:9/hook',
        tenantId,
        events: ['order.shipped'],
      });

      const patched = await call(token, 'PATCH', `/api/v1/webhooks/${subscription.id}`, {
        url: 'http://127.0.0.1:9/moved',
      });

      expect(patched.status).toBe(200);
    });
  });

  describe('filter-test', () => {
    let eventsTenantId: string;

    beforeAll(async () => {
      eventsTenantId = (await createTenantWithWarehouse(ctx)).tenant.id;
      await appendEvents(ctx, [...sampleEvents(eventsTenantId), ...sampleEvents(otherTenantId)]);
      // The feed positions, which order a tenant's latest events, are given by the relay.
      const queue = createWebhookDeliveryQueue(ctx.runtime.redis, ctx.config.redisKeyPrefix, 3);
      await drainRelay(relayOver(ctx, queue));
      await queue.close();
    });

    it('a manager holding only webhooks and orders gets 403 EVENTS_BEYOND_MODULES when it names stock.adjusted or *', async () => {
      const token = await manager(['webhooks', 'orders'], ['webhooks'], eventsTenantId);

      const stock = await call(token, 'POST', '/api/v1/webhooks/filter-test', {
        filter: { qtyOnHand: { $gte: 0 } },
        events: ['stock.adjusted'],
      });
      const wildcard = await call(token, 'POST', '/api/v1/webhooks/filter-test', {
        filter: { qtyOnHand: { $gte: 0 } },
        events: ['*'],
      });

      expect([stock.status, wildcard.status]).toEqual([403, 403]);
      expect([stock.body.code, wildcard.body.code]).toEqual(['EVENTS_BEYOND_MODULES', 'EVENTS_BEYOND_MODULES']);
      expect(stock.body.message).toContain('read on inventory (stock.adjusted)');
      expect(wildcard.body.message).toContain('read on inventory');
    });

    it('naming no events tries only the event types the caller reads, of its own tenant', async () => {
      const token = await manager(['webhooks', 'orders'], ['webhooks'], eventsTenantId);

      const answer = await call(token, 'POST', '/api/v1/webhooks/filter-test', {
        filter: { orderNo: { $exists: true } },
        limit: 500,
      });

      expect(answer.status).toBe(200);
      const tried = new Set(answer.body.events!.map((row) => row.event));
      expect([...tried].sort()).toEqual(['order.allocated', 'order.cancelled', 'order.released', 'order.shipped']);
      expect(answer.body.tested).toBe(4);
    });

    it('a tenant-bound manager cannot name another tenant', async () => {
      const token = await manager(['webhooks', 'orders'], ['webhooks'], eventsTenantId);

      const answer = await call(token, 'POST', '/api/v1/webhooks/filter-test', {
        filter: { orderNo: { $exists: true } },
        tenantId: otherTenantId,
      });

      expect(answer.status).toBe(403);
      expect(answer.body.code).toBe('TENANT_MISMATCH');
    });

    it('an admin still tries every business event', async () => {
      const { user, password } = await createUser(ctx, { role: 'admin', tenantId: null });
      const token = await loginAs(gateway.url, user.email, password);

      const answer = await call(token, 'POST', '/api/v1/webhooks/filter-test', {
        filter: { orderNo: { $exists: true } },
        tenantId: eventsTenantId,
        limit: 500,
      });

      expect(answer.status).toBe(200);
      expect(answer.body.tested).toBe(sampleEvents(eventsTenantId).length);
    });
  });
});
