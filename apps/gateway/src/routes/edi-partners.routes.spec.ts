import {
  RecordingEdiOutbound,
  TEST_ADMIN,
  createApiKey,
  createTenantWithWarehouse,
  createTestContext,
  createUser,
  insertInterchange,
  loginAs,
  request,
  type TestContext,
  type TestGateway,
} from '@wms/testing';
import type { AdminModule } from '@wms/identity';

interface Partner {
  id: string;
  tenantId: string;
  status: string;
  sftpUsername: string;
  inboundSets: string[];
  outboundSets: string[];
  nextInventoryAdviceAt: string | null;
  [key: string]: unknown;
}
interface Refusal {
  code: string;
  message: string;
  details?: Array<{ path: string; message: string }>;
}

let isaSequence = 0;
/** A partner body with an ISA ID of its own, so that creations never meet in the unique ISA pair. */
const partnerBody = (extra: Record<string, unknown> = {}) => ({
  name: 'Acme Retail',
  partner: { qualifier: 'ZZ', interchangeId: `ACME${++isaSequence}`, groupCode: 'ACMEGS' },
  us: { qualifier: 'ZZ', interchangeId: 'WAREHOUSE', groupCode: 'WHGS' },
  ...extra,
});

describe('EDI trading partners: the admin API', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let outbound: RecordingEdiOutbound;
  let token: string;
  let adminId: string;
  let tenantId: string;

  beforeAll(async () => {
    ctx = await createTestContext('edi-partners-routes');
    outbound = new RecordingEdiOutbound(ctx.runtime.db);
    gateway = await ctx.startGateway({}, { ediOutbound: outbound });
    token = await loginAs(gateway.url, TEST_ADMIN.email, TEST_ADMIN.password);
    adminId = (await request<{ id: string }>(gateway.url, 'GET', '/api/v1/auth/me', { token })).body.id;
    tenantId = (await createTenantWithWarehouse(ctx, 'EDIT', 'WH1')).tenant.id;
  });
  afterAll(() => ctx.close());

  const call = <T = Partner>(method: string, path: string, body?: unknown, bearer = token) =>
    request<T>(gateway.url, method, `/api/v1/edi/partners${path}`, { token: bearer, body });
  const trail = async (id: string) =>
    (
      await request<Array<{ action: string; actorUserId: string; tenantId: string; changes: Record<string, unknown> }>>(
        gateway.url,
        'GET',
        `/api/v1/audit-logs?entityType=edi_trading_partner&entityId=${id}`,
        { token },
      )
    ).body.reverse();
  const userWith = async (read: AdminModule[], write: AdminModule[] = [], tenant: string | null = null) => {
    const { user, password } = await createUser(ctx, {
      role: 'manager',
      adminModules: read,
      adminModulesWrite: write,
      tenantId: tenant,
    });
    return loginAs(gateway.url, user.email, password);
  };

  it('when an admin creates a partner, it gets the defaults, a derived SFTP user name, a synced subscription and an audit entry', async () => {
    const created = await call('POST', '', partnerBody({ tenantId, warehouseCode: 'WH1', inventoryAdviceMinutes: 60 }));

    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      tenantId,
      status: 'active',
      x12Version: '004010',
      usageIndicator: 'P',
      separators: { element: '*', component: '>', segment: '~' },
      inboundSets: ['940', '943', '856', '997'],
      outboundSets: ['944', '945', '947', '846', '997'],
      warehouseCode: 'WH1',
      inventoryAdviceMinutes: 60,
      ackOverdueHours: 24,
      sftpPasswordSet: false,
      sftpPublicKeys: [],
    });
    expect(created.body.sftpUsername).toMatch(/^acme-retail-[0-9a-f]{6}$/);
    expect(Date.parse(created.body.nextInventoryAdviceAt!)).toBeGreaterThan(Date.now() + 50 * 60_000);
    expect(outbound.synced.filter(({ id }) => id === created.body.id)).toEqual([
      { id: created.body.id, status: 'active', outboundSets: ['944', '945', '947', '846', '997'] },
    ]);
    const [entry, ...more] = await trail(created.body.id);
    expect(more).toEqual([]);
    expect(entry).toMatchObject({ action: 'edi_partner.created', actorUserId: adminId, tenantId });
    expect(entry!.changes).toMatchObject({ name: 'Acme Retail', warehouseCode: 'WH1', tenantId });
  });

  it('when the settings are malformed, it answers 400 naming each field, and stores nothing', async () => {
    const before = (await call<Partner[]>('GET', `?tenantId=${tenantId}`)).body.length;
    const refused = await call<Refusal>(
      'POST',
      '',
      partnerBody({
        tenantId,
        partner: { qualifier: 'Z', interchangeId: 'A-VERY-LONG-ISA-ID', groupCode: 'G' },
        x12Version: '005010',
        separators: { element: '*', component: '*', segment: 'A' },
        inboundSets: ['940', '945'],
        inventoryAdviceMinutes: 5,
        ackOverdueHours: 0,
      }),
    );
    const paths = (refused.body.details ?? []).map(({ path }) => path).sort();

    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('VALIDATION_FAILED');
    expect(paths).toEqual(
      expect.arrayContaining([
        'partner.qualifier',
        'partner.interchangeId',
        'partner.groupCode',
        'x12Version',
        'separators.segment',
        'inboundSets.1',
        'inventoryAdviceMinutes',
        'ackOverdueHours',
      ]),
    );
    expect((await call<Partner[]>('GET', `?tenantId=${tenantId}`)).body.length).toBe(before);
  });

  it('when separators repeat, a warehouse or key is not the tenant’s, or an ID holds a separator, it answers 400', async () => {
    const other = await createTenantWithWarehouse(ctx, 'EDIO', 'WH9');
    const foreignKey = await createApiKey(ctx, { tenantId: other.tenant.id });
    const revoked = await createApiKey(ctx, { tenantId });
    await ctx.services.apiKeys.revoke(revoked.id, { userId: null, tenantId: null });

    const same = await call<Refusal>(
      'POST',
      '',
      partnerBody({ tenantId, separators: { element: '*', component: '*', segment: '~' } }),
    );
    const references = await call<Refusal>(
      'POST',
      '',
      partnerBody({ tenantId, warehouseCode: 'WH9', apiKeyId: foreignKey.id }),
    );
    const revokedKey = await call<Refusal>('POST', '', partnerBody({ tenantId, apiKeyId: revoked.id }));
    const holdsSeparator = await call<Refusal>(
      'POST',
      '',
      partnerBody({
        tenantId,
        us: { qualifier: 'ZZ', interchangeId: 'WH-1', groupCode: 'WH/GS' },
        separators: { element: '/', component: '>', segment: '~' },
      }),
    );

    expect(same.status).toBe(400);
    expect(same.body.details).toEqual([
      { path: 'separators', message: 'separators must be three different characters' },
    ]);
    expect(references.status).toBe(400);
    expect(references.body.details!.map(({ path }) => path)).toEqual(['warehouseCode', 'apiKeyId']);
    expect(revokedKey.body.details).toEqual([{ path: 'apiKeyId', message: 'the API key is revoked or expired' }]);
    expect(holdsSeparator.status).toBe(400);
    expect(holdsSeparator.body.details!.map(({ path }) => path)).toEqual(['us.groupCode']);
  });

  it('when the bound key is revoked later, the partner can still be edited; binding a revoked key is refused', async () => {
    const key = await createApiKey(ctx, { tenantId });
    const created = await call('POST', '', partnerBody({ tenantId, apiKeyId: key.id }));
    await ctx.services.apiKeys.revoke(key.id, { userId: null, tenantId: null });

    const renamed = await call('PATCH', `/${created.body.id}`, { name: 'Acme Outlet' });
    const unbound = await call('PATCH', `/${created.body.id}`, { apiKeyId: null });
    const rebound = await call<Refusal>('PATCH', `/${created.body.id}`, { apiKeyId: key.id });

    expect([renamed.status, renamed.body.name]).toEqual([200, 'Acme Outlet']);
    expect([unbound.status, unbound.body.apiKeyId]).toEqual([200, null]);
    expect([rebound.status, rebound.body.code]).toEqual([400, 'VALIDATION_FAILED']);
  });

  it('when the ISA pair, the API key or the SFTP user name is another partner’s, it answers 409', async () => {
    const key = await createApiKey(ctx, { tenantId });
    const first = await call('POST', '', partnerBody({ tenantId, apiKeyId: key.id, sftpUsername: 'acme-one' }));
    const samePair = await call<Refusal>('POST', '', { ...partnerBody({ tenantId }), partner: first.body.partner });
    const sameKey = await call<Refusal>('POST', '', partnerBody({ tenantId, apiKeyId: key.id }));
    const sameName = await call<Refusal>('POST', '', partnerBody({ tenantId, sftpUsername: 'acme-one' }));
    const second = await call('POST', '', partnerBody({ tenantId }));
    const renamed = await call<Refusal>('PATCH', `/${second.body.id}`, { sftpUsername: 'acme-one' });

    expect(first.status).toBe(201);
    expect([samePair.status, samePair.body.code]).toEqual([409, 'PARTNER_ISA_EXISTS']);
    expect([sameKey.status, sameKey.body.code]).toEqual([409, 'API_KEY_BOUND']);
    expect([sameName.status, sameName.body.code]).toEqual([409, 'SFTP_USERNAME_TAKEN']);
    expect([renamed.status, renamed.body.code]).toEqual([409, 'SFTP_USERNAME_TAKEN']);
  });

  it('when a partner is updated, disabled, enabled and deleted, each is audited with what changed and synced; a no-op is not', async () => {
    const created = await call('POST', '', partnerBody({ tenantId }));
    const id = created.body.id;

    const unchanged = await call('PATCH', `/${id}`, { ackOverdueHours: 24 });
    const updated = await call('PATCH', `/${id}`, { ackOverdueHours: 48, outboundSets: ['945', '997'] });
    const disabled = await call('POST', `/${id}/disable`);
    const enabled = await call('POST', `/${id}/enable`);
    const removed = await call('DELETE', `/${id}`);
    const entries = await trail(id);

    expect([unchanged.status, updated.status, disabled.body.status, enabled.body.status, removed.status]).toEqual([
      200,
      200,
      'disabled',
      'active',
      204,
    ]);
    expect(entries.map(({ action }) => action)).toEqual([
      'edi_partner.created',
      'edi_partner.updated',
      'edi_partner.disabled',
      'edi_partner.enabled',
      'edi_partner.deleted',
    ]);
    expect(entries[1]!.changes).toEqual({
      ackOverdueHours: { from: 24, to: 48 },
      outboundSets: { from: ['944', '945', '947', '846', '997'], to: ['945', '997'] },
    });
    expect(
      outbound.synced.filter((sync) => sync.id === id).map(({ status, outboundSets }) => [status, outboundSets.length]),
    ).toEqual([
      ['active', 5],
      ['active', 2],
      ['disabled', 2],
      ['active', 2],
      ['disabled', 0],
    ]);
    expect((await call<Refusal>('GET', `/${id}`)).status).toBe(404);
  });

  it('when a partner has exchanged documents, deleting it is 409 PARTNER_HAS_DOCUMENTS and it stays', async () => {
    const created = await call('POST', '', partnerBody({ tenantId }));
    await insertInterchange(ctx.runtime.db, created.body, { direction: 'in', state: 'accepted', setCodes: ['940'] });

    const refused = await call<Refusal>('DELETE', `/${created.body.id}`);

    expect([refused.status, refused.body.code]).toEqual([409, 'PARTNER_HAS_DOCUMENTS']);
    expect((await call('GET', `/${created.body.id}`)).status).toBe(200);
  });

  it('when a user lacks module edi it gets 403; read lets it list and look, not change', async () => {
    const created = await call('POST', '', partnerBody({ tenantId }));
    const none = await userWith(['orders', 'inbound', 'inventory']);
    const reader = await userWith(['edi', 'orders', 'inbound', 'inventory']);

    expect((await call('GET', '', undefined, none)).status).toBe(403);
    expect((await call('GET', `/${created.body.id}`, undefined, reader)).status).toBe(200);
    expect((await call('PATCH', `/${created.body.id}`, { name: 'x' }, reader)).status).toBe(403);
    expect((await call('POST', '', partnerBody({ tenantId }), reader)).status).toBe(403);
  });

  it('when a partner’s sets reach a module the user does not read, or it binds a key without api-keys, it is 403', async () => {
    const created = await call('POST', '', partnerBody({ tenantId }));
    const ordersOnly = await userWith(['edi', 'orders'], ['edi']);
    const key = await createApiKey(ctx, { tenantId });

    const wide = await call<Refusal>('POST', '', partnerBody({ tenantId }), ordersOnly);
    const narrow = await call(
      'POST',
      '',
      partnerBody({ tenantId, inboundSets: ['940', '997'], outboundSets: ['945', '997'] }),
      ordersOnly,
    );
    const change = await call<Refusal>('PATCH', `/${created.body.id}`, { name: 'Other' }, ordersOnly);
    const bind = await call<Refusal>('PATCH', `/${narrow.body.id}`, { apiKeyId: key.id }, ordersOnly);

    expect([wide.status, wide.body.code]).toEqual([403, 'SETS_BEYOND_MODULES']);
    expect(wide.body.message).toContain('read on inbound (943)');
    expect(narrow.status).toBe(201);
    expect([change.status, change.body.code]).toEqual([403, 'SETS_BEYOND_MODULES']);
    expect([bind.status, bind.body.code]).toEqual([403, 'API_KEYS_MODULE_REQUIRED']);
  });

  it('when a tenant-bound user reads, it sees only its tenant’s partners; another tenant’s is 404 and naming it 403', async () => {
    const other = await createTenantWithWarehouse(ctx, 'EDIB', 'WH1');
    const theirs = await call('POST', '', partnerBody({ tenantId: other.tenant.id }));
    const bound = await userWith(['edi', 'orders', 'inbound', 'inventory'], ['edi'], tenantId);

    const list = await call<Partner[]>('GET', '', undefined, bound);
    const look = await call<Refusal>('GET', `/${theirs.body.id}`, undefined, bound);
    const create = await call<Refusal>('POST', '', partnerBody({ tenantId: other.tenant.id }), bound);
    const own = await call('POST', '', partnerBody(), bound);

    expect(list.status).toBe(200);
    expect(list.body.length).toBeGreaterThan(0);
    expect(list.body.every((partner) => partner.tenantId === tenantId)).toBe(true);
    expect(look.status).toBe(404);
    expect([create.status, create.body.code]).toEqual([403, 'TENANT_MISMATCH']);
    expect([own.status, own.body.tenantId]).toEqual([201, tenantId]);
  });

  it('when a cross-tenant admin creates without tenantId it is 400 TENANT_REQUIRED; the list pages with a cursor', async () => {
    const missing = await call<Refusal>('POST', '', partnerBody());
    const first = await request<Partner[]>(gateway.url, 'GET', `/api/v1/edi/partners?tenantId=${tenantId}&limit=2`, {
      token,
    });
    const cursor = first.headers.get('x-next-cursor');
    const second = await request<Partner[]>(
      gateway.url,
      'GET',
      `/api/v1/edi/partners?tenantId=${tenantId}&limit=2&cursor=${cursor}`,
      { token },
    );

    expect([missing.status, missing.body.code]).toEqual([400, 'TENANT_REQUIRED']);
    expect(first.body).toHaveLength(2);
    expect(cursor).toBeTruthy();
    expect(second.body.length).toBeGreaterThan(0);
    expect(second.body.map(({ id }) => id)).not.toEqual(expect.arrayContaining(first.body.map(({ id }) => id)));
  });
});
