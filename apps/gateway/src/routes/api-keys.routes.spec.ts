import {
  TEST_ADMIN,
  createTenantWithWarehouse,
  createTestContext,
  createUser,
  loginAs,
  request,
  type JsonNode,
  type TestContext,
  type TestGateway,
} from '@wms/testing';

const INTEGRATION_PATH = '/api/v1/integration/v1/no-such-route';
const inOneHour = () => new Date(Date.now() + 3_600_000).toISOString();

/** A key as its creation answers it: the raw key is shown this once. */
interface CreatedKey {
  id: string;
  rawKey: string;
}

describe('API-key administration', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let adminToken: string;

  beforeAll(async () => {
    ctx = await createTestContext('api-keys-admin');
    gateway = await ctx.startGateway();
    adminToken = await loginAs(gateway.url, TEST_ADMIN.email, TEST_ADMIN.password);
  });
  afterAll(() => ctx.close());

  const admin = <T = JsonNode>(method: string, path: string, body?: unknown) =>
    request<T>(gateway.url, method, `/api/v1${path}`, { token: adminToken, body });

  describe('create', () => {
    it('when an admin creates a key, it gets 201 with the record and the raw key once, never the hash', async () => {
      const response = await admin('POST', '/api-keys', {
        name: 'ERP',
        description: 'SAP, contact ops@example.com',
        scopes: ['read', 'write', 'orders'],
        expiresAt: inOneHour(),
        ipWhitelist: ['10.0.0.0/8', '2001:db8::1'],
        allowedOrigins: ['https://Shop.Example.com:443'],
        rateLimitPerMinute: 120,
      });

      expect(response.status).toBe(201);
      expect(response.body).toEqual({
        id: expect.any(String),
        name: 'ERP',
        description: 'SAP, contact ops@example.com',
        scopes: ['read', 'write', 'orders'],
        tenantId: null,
        expiresAt: expect.any(String),
        ipWhitelist: ['10.0.0.0/8', '2001:db8::1'],
        allowedOrigins: ['https://shop.example.com'],
        rateLimitPerMinute: 120,
        active: true,
        keyPrefix: response.body.rawKey.slice(0, 10),
        createdAt: expect.any(String),
        lastUsedAt: null,
        expiresSoon: true,
        rolledAt: null,
        previousKey: null,
        // Without apiVersion a key is pinned to the deployment's default, the interface's own shapes.
        apiVersion: '2026-11-21',
        rawKey: expect.stringMatching(/^wms_[0-9A-Za-z]{36}$/),
      });
    });

    it('when the key is read back, listed or edited, the raw key and the hash are never in the answer', async () => {
      const created = await admin('POST', '/api-keys', { name: 'Shop', scopes: ['read'] });

      const answers = [
        await admin('GET', `/api-keys/${created.body.id}`),
        await admin('GET', '/api-keys'),
        await admin('PATCH', `/api-keys/${created.body.id}`, { name: 'Shop 2' }),
        await admin('POST', `/api-keys/${created.body.id}/revoke`),
        await admin('POST', `/api-keys/${created.body.id}/activate`),
      ];

      for (const answer of answers) {
        expect(answer.status).toBe(200);
        const text = JSON.stringify(answer.body);
        expect(text).not.toContain(created.body.rawKey);
        expect(text).not.toContain('rawKey');
        expect(text).not.toMatch(/keyHash|key_hash/);
      }
      expect(answers[1]!.body.map((key) => key.id)).toContain(created.body.id);
    });

    it('when fields are invalid, it answers 400 naming every bad field and stores nothing', async () => {
      const before = await admin('GET', '/api-keys');

      const response = await admin('POST', '/api-keys', {
        name: 'bad',
        scopes: ['read', ''],
        ipWhitelist: ['10.0.0.300', '10.0.0.0/33', 'example.com'],
        allowedOrigins: ['https://shop.example.com/path', 'shop.example.com'],
        rateLimitPerMinute: -1,
        expiresAt: new Date(Date.now() - 60_000).toISOString(),
      });
      const after = await admin('GET', '/api-keys');

      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ statusCode: 400, error: 'Bad Request', requestId: expect.any(String) });
      const paths = response.body.details.map((detail) => detail.path);
      expect(paths).toEqual(
        expect.arrayContaining([
          'scopes.1',
          'ipWhitelist.0',
          'ipWhitelist.1',
          'ipWhitelist.2',
          'allowedOrigins.0',
          'allowedOrigins.1',
          'rateLimitPerMinute',
          'expiresAt',
        ]),
      );
      expect(after.body).toHaveLength(before.body.length);
    });

    it('when scopes are empty or unknown fields are sent, it answers 400 naming them', async () => {
      const empty = await admin('POST', '/api-keys', { name: 'x', scopes: [] });
      const unknown = await admin('POST', '/api-keys', { name: 'x', scopes: ['read'], keyHash: 'abc' });

      expect(empty.status).toBe(400);
      expect(empty.body.details[0].path).toBe('scopes');
      expect(unknown.status).toBe(400);
      expect(unknown.body.details[0].path).toBe('keyHash');
    });

    it('when the tenant does not exist, it answers 400 naming tenantId', async () => {
      const response = await admin('POST', '/api-keys', {
        name: 'x',
        scopes: ['read'],
        tenantId: '00000000-0000-4000-8000-000000000000',
      });

      expect(response.status).toBe(400);
      expect(response.body.details).toEqual([{ path: 'tenantId', message: expect.stringContaining('does not exist') }]);
    });
  });

  describe('tenant-bound administrators', () => {
    it("when a tenant-bound user manages keys, it sees and changes only its tenant's keys; others are 404", async () => {
      const { tenant } = await createTenantWithWarehouse(ctx);
      const { tenant: otherTenant } = await createTenantWithWarehouse(ctx);
      // A read key needs read on the modules the integration API's reads return.
      const { user, password } = await createUser(ctx, {
        role: 'manager',
        tenantId: tenant.id,
        adminModules: ['api-keys', 'inbound', 'orders', 'inventory'],
        adminModulesWrite: ['api-keys'],
      });
      const token = await loginAs(gateway.url, user.email, password);
      const foreign = await admin('POST', '/api-keys', { name: 'foreign', scopes: ['read'], tenantId: otherTenant.id });

      const own = await request(gateway.url, 'POST', '/api/v1/api-keys', {
        token,
        body: { name: 'own', scopes: ['read'] },
      });
      const list = await request(gateway.url, 'GET', '/api/v1/api-keys', { token });
      const detail = await request(gateway.url, 'GET', `/api/v1/api-keys/${foreign.body.id}`, { token });
      const revoke = await request(gateway.url, 'POST', `/api/v1/api-keys/${foreign.body.id}/revoke`, { token });
      const stats = await request(gateway.url, 'GET', `/api/v1/api-keys/${foreign.body.id}/stats`, { token });
      const otherTenantCreate = await request(gateway.url, 'POST', '/api/v1/api-keys', {
        token,
        body: { name: 'x', scopes: ['read'], tenantId: otherTenant.id },
      });

      expect(own.status).toBe(201);
      expect(own.body.tenantId).toBe(tenant.id);
      expect(list.body.map((key) => key.id)).toEqual([own.body.id]);
      expect(detail.status).toBe(404);
      expect(revoke.status).toBe(404);
      expect(stats.status).toBe(404);
      expect(otherTenantCreate.status).toBe(403);
      expect((await admin('GET', `/api-keys/${foreign.body.id}`)).body.active).toBe(true);
    });

    it('when a user lacks the api-keys module, it gets 403; read permission alone cannot create', async () => {
      const { user, password } = await createUser(ctx, { role: 'viewer', adminModules: ['api-keys'] });
      const token = await loginAs(gateway.url, user.email, password);

      const list = await request(gateway.url, 'GET', '/api/v1/api-keys', { token });
      const create = await request(gateway.url, 'POST', '/api/v1/api-keys', {
        token,
        body: { name: 'x', scopes: ['read'] },
      });

      expect(list.status).toBe(200);
      expect(create.status).toBe(403);
    });

    it('when an unknown or malformed id is asked for, it answers 404', async () => {
      expect((await admin('GET', '/api-keys/00000000-0000-4000-8000-000000000000')).status).toBe(404);
      expect((await admin('GET', '/api-keys/not-a-uuid')).status).toBe(404);
    });
  });

  describe('edit, revoke, activate and the audit log', () => {
    it('when a key is created, edited, revoked and activated, each action is audited with the actor and what changed', async () => {
      const created = await admin<CreatedKey>('POST', '/api-keys', {
        name: 'Carrier',
        scopes: ['read'],
        rateLimitPerMinute: 10,
      });
      const id = created.body.id;

      const patched = await admin('PATCH', `/api-keys/${id}`, {
        name: 'Carrier DHL',
        scopes: ['read', 'write'],
        rateLimitPerMinute: 10,
      });
      const revoked = await admin('POST', `/api-keys/${id}/revoke`);
      const revokedAgain = await admin('POST', `/api-keys/${id}/revoke`);
      const activated = await admin('POST', `/api-keys/${id}/activate`);
      const audit = await admin('GET', `/audit-logs?entityType=api_key&entityId=${id}`);

      expect(patched.body).toMatchObject({ name: 'Carrier DHL', scopes: ['read', 'write'] });
      expect(revoked.body.active).toBe(false);
      expect(revokedAgain.body.active).toBe(false);
      expect(activated.body.active).toBe(true);
      expect(audit.status).toBe(200);
      const adminId = (await ctx.services.auth.login(TEST_ADMIN.email, TEST_ADMIN.password)).user.id;
      const byAction = Object.fromEntries(audit.body.map((entry) => [entry.action, entry]));
      expect(audit.body).toHaveLength(4);
      expect(byAction['api_key.created']).toEqual({
        id: expect.any(String),
        action: 'api_key.created',
        entityType: 'api_key',
        entityId: id,
        actorUserId: adminId,
        actorEmail: TEST_ADMIN.email,
        tenantId: null,
        changes: expect.objectContaining({ name: 'Carrier', scopes: ['read'], rateLimitPerMinute: 10 }),
        createdAt: expect.any(String),
      });
      expect(byAction['api_key.updated'].changes).toEqual({
        name: { from: 'Carrier', to: 'Carrier DHL' },
        scopes: { from: ['read'], to: ['read', 'write'] },
      });
      expect(byAction['api_key.revoked'].changes).toEqual({ active: { from: true, to: false } });
      expect(byAction['api_key.activated'].changes).toEqual({ active: { from: false, to: true } });
      for (const entry of audit.body) expect(entry.actorUserId).toBe(adminId);
      expect(JSON.stringify(audit.body)).not.toMatch(/keyHash|rawKey/);
      expect(JSON.stringify(audit.body)).not.toContain(created.body.rawKey);
    });

    it('when a PATCH carries a bad or an unknown field, it answers 400 and changes nothing', async () => {
      const created = await admin('POST', '/api-keys', { name: 'Stable', scopes: ['read'] });

      const bad = await admin('PATCH', `/api-keys/${created.body.id}`, { name: 'New', ipWhitelist: ['nope'] });
      const tenantMove = await admin('PATCH', `/api-keys/${created.body.id}`, { tenantId: created.body.id });
      const detail = await admin('GET', `/api-keys/${created.body.id}`);

      expect(bad.status).toBe(400);
      expect(bad.body.details.map((detail) => detail.path)).toEqual(['ipWhitelist.0']);
      expect(tenantMove.status).toBe(400);
      expect(detail.body.name).toBe('Stable');
    });

    it('when an edit tightens a key, the next request through the guard obeys the new rules', async () => {
      const created = await admin<CreatedKey>('POST', '/api-keys', { name: 'Tighten', scopes: ['read'] });
      const call = () =>
        request(gateway.url, 'GET', INTEGRATION_PATH, { headers: { 'x-api-key': created.body.rawKey } });
      expect((await call()).status).toBe(404);

      await admin('PATCH', `/api-keys/${created.body.id}`, { ipWhitelist: ['192.0.2.1'] });

      expect((await call()).status).toBe(403);
    });
  });

  describe('statistics and the request log', () => {
    it('when a key made requests, its stats count them, their errors and response times, newest first', async () => {
      const created = await admin<CreatedKey>('POST', '/api-keys', { name: 'Stats', scopes: ['read'] });
      const headers = { 'x-api-key': created.body.rawKey, origin: 'https://erp.example.com' };
      for (let i = 0; i < 3; i++) await request(gateway.url, 'GET', `${INTEGRATION_PATH}?page=${i}`, { headers });
      await request(gateway.url, 'POST', INTEGRATION_PATH, { headers });
      await gateway.flushRequestLog();

      const stats = await admin<{ recentRequests: { createdAt: string }[] }>(
        'GET',
        `/api-keys/${created.body.id}/stats`,
      );
      const detail = await admin('GET', `/api-keys/${created.body.id}`);

      expect(stats.status).toBe(200);
      expect(stats.body).toEqual({
        requests7d: 3,
        requests24h: 3,
        rateLimited: 0,
        rateLimited24h: 0,
        refused: 0,
        refused24h: 0,
        errorRate: 1,
        avgResponseTimeMs: expect.any(Number),
        requestsByVersion: { '2026-11-21': 3 },
        recentRequests: expect.any(Array),
        hourly: expect.any(Array),
        daily: expect.any(Array),
      });
      expect(stats.body.recentRequests).toHaveLength(3);
      expect(stats.body.recentRequests[0]).toEqual({
        // The route template that answered; a path no route matched is logged as its mount's.
        endpoint: '/api/v1/integration/v1/*',
        method: 'GET',
        ip: '127.0.0.1',
        origin: 'https://erp.example.com',
        statusCode: 404,
        responseTimeMs: expect.any(Number),
        createdAt: expect.any(String),
      });
      const times = stats.body.recentRequests.map((entry) => Date.parse(entry.createdAt));
      expect([...times].sort((a, b) => b - a)).toEqual(times);
      expect(detail.body.lastUsedAt).not.toBeNull();
    });

    it('when no request was made, the stats are zero and the error rate is 0', async () => {
      const created = await admin('POST', '/api-keys', { name: 'Idle', scopes: ['read'] });

      const stats = await admin('GET', `/api-keys/${created.body.id}/stats`);

      expect(stats.body).toEqual({
        requests7d: 0,
        requests24h: 0,
        rateLimited: 0,
        rateLimited24h: 0,
        refused: 0,
        refused24h: 0,
        errorRate: 0,
        avgResponseTimeMs: 0,
        requestsByVersion: {},
        recentRequests: [],
        hourly: expect.any(Array),
        daily: expect.any(Array),
      });
    });
  });
});
