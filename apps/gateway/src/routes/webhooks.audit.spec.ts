import {
  TEST_ADMIN,
  createTenantWithWarehouse,
  createTestContext,
  loginAs,
  request,
  type TestContext,
  type TestGateway,
} from '@wms/testing';

interface AuditAnswer {
  action: string;
  entityType: string;
  entityId: string;
  actorUserId: string | null;
  tenantId: string | null;
  changes: Record<string, unknown>;
}

describe('webhook subscription audit trail', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let token: string;
  let adminId: string;

  beforeAll(async () => {
    ctx = await createTestContext('webhooks-audit');
    gateway = await ctx.startGateway();
    token = await loginAs(gateway.url, TEST_ADMIN.email, TEST_ADMIN.password);
    adminId = (await request<{ id: string }>(gateway.url, 'GET', '/api/v1/auth/me', { token })).body.id;
  });
  afterAll(() => ctx.close());

  const call = <T = Record<string, unknown>>(method: string, path: string, body?: unknown) =>
    request<T>(gateway.url, method, `/api/v1/webhooks${path}`, { token, body });
  const trail = async (id: string) =>
    (
      await request<AuditAnswer[]>(
        gateway.url,
        'GET',
        `/api/v1/audit-logs?entityType=webhook_subscription&entityId=${id}`,
        {
          token,
        },
      )
    ).body.reverse();

  it('create, update, rotate, disable, enable and delete are each audited with the actor and what changed; the secret never', async () => {
    const { tenant } = await createTenantWithWarehouse(ctx);
    const created = await call<{ id: string; secret: string }>('POST', '', {
      url: 'https://93.184.215.14/hooks',
      events: ['order.shipped'],
      tenantId: tenant.id,
      description: 'ERP',
    });
    const id = created.body.id;

    const unchanged = await call('PATCH', `/${id}`, { description: 'ERP' });
    await call('PATCH', `/${id}`, { events: ['order.shipped', 'stock.adjusted'], description: 'ERP main' });
    const rotated = await call<{ secret: string }>('POST', `/${id}/rotate-secret`, { graceSeconds: 60 });
    await call('PATCH', `/${id}`, { active: false });
    await call('POST', `/${id}/enable`);
    const removed = await call('DELETE', `/${id}`);
    const entries = await trail(id);

    expect(unchanged.status).toBe(200);
    expect(removed.status).toBe(204);
    expect(entries.map((entry) => entry.action)).toEqual([
      'webhook.created',
      'webhook.updated',
      'webhook.secret_rotated',
      'webhook.updated',
      'webhook.enabled',
      'webhook.deleted',
    ]);
    expect(entries.every((entry) => entry.actorUserId === adminId && entry.tenantId === tenant.id)).toBe(true);
    expect(entries.every((entry) => entry.entityType === 'webhook_subscription')).toBe(true);
    expect(entries[0]!.changes).toEqual({
      url: 'https://93.184.215.14/hooks',
      destination: { kind: 'http', url: 'https://93.184.215.14/hooks' },
      events: ['order.shipped'],
      description: 'ERP',
      filter: null,
      maxDeliveriesPerSecond: null,
      ordered: false,
      // Without apiVersion a subscription's bodies are in the deployment's default version.
      apiVersion: '2026-11-21',
      tenantId: tenant.id,
      active: true,
    });
    expect(entries[1]!.changes).toEqual({
      events: { from: ['order.shipped'], to: ['order.shipped', 'stock.adjusted'] },
      description: { from: 'ERP', to: 'ERP main' },
    });
    expect(entries[3]!.changes).toEqual({ active: { from: true, to: false } });
    expect(entries[5]!.changes).toMatchObject({ url: 'https://93.184.215.14/hooks', active: true });
    const text = JSON.stringify(entries);
    expect(text).not.toContain(created.body.secret);
    expect(text).not.toContain(rotated.body.secret);
    expect(text).not.toContain('whsec_');
  });

  it('when an update is refused, nothing is audited', async () => {
    const created = await call<{ id: string }>('POST', '', { url: 'https://93.184.215.14/x', events: ['*'] });

    const refused = await call('PATCH', `/${created.body.id}`, { url: 'ftp://example.com/x' });

    expect(refused.status).toBe(400);
    expect((await trail(created.body.id)).map((entry) => entry.action)).toEqual(['webhook.created']);
  });
});
