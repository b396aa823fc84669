import {
  TEST_ADMIN,
  createApiKey,
  createTestContext,
  loginAs,
  request,
  type TestContext,
  type TestGateway,
} from '@wms/testing';

/** The guard lets a request to this path through to the integration 404; a refused key gets 401. */
const PASSING_PATH = '/api/v1/integration/v1/no-such-route';
const DAY = 24 * 3_600_000;

/** An API key as the admin API answers it; `rawKey` only in create and roll answers. */
interface KeyAnswer {
  id: string;
  name: string;
  keyPrefix: string;
  rawKey: string;
  active: boolean;
  rateLimitPerMinute: number;
  rolledAt: string | null;
  expiresSoon: boolean;
  previousKey: { keyPrefix: string; expiresAt: string } | null;
}

interface AuditAnswer {
  action: string;
  changes: Record<string, unknown>;
}

describe('API-key roll and expiry warnings', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let other: TestGateway;
  let token: string;

  beforeAll(async () => {
    ctx = await createTestContext('api-key-roll');
    gateway = await ctx.startGateway();
    other = await ctx.startGateway();
    token = await loginAs(gateway.url, TEST_ADMIN.email, TEST_ADMIN.password);
  });
  afterAll(() => ctx.close());

  const admin = <T = KeyAnswer>(method: string, path: string, body?: unknown) =>
    request<T>(gateway.url, method, `/api/v1${path}`, { token, body });
  const call = (rawKey: string, base = gateway.url) =>
    request(base, 'GET', PASSING_PATH, { headers: { 'x-api-key': rawKey } }).then((response) => response.status);

  /** Calls until the key is refused on `base` or a second has passed; the status last seen. */
  async function refusedWithinASecond(rawKey: string, base: string): Promise<number> {
    const deadline = Date.now() + 1_000;
    let status = 0;
    while (Date.now() < deadline) {
      status = await call(rawKey, base);
      if (status === 401) break;
    }
    return status;
  }

  it('when a key is rolled with a grace period, both raw keys work on every replica and the detail shows both', async () => {
    const key = await createApiKey(ctx, { name: 'ERP', rateLimitPerMinute: 1000 });
    expect(await call(key.rawKey, other.url)).toBe(404);

    const rolled = await admin('POST', `/api-keys/${key.id}/roll`, { graceSeconds: 3600 });
    const detail = await admin('GET', `/api-keys/${key.id}`);

    expect(rolled.status).toBe(200);
    expect(rolled.body).toMatchObject({ id: key.id, name: 'ERP', rateLimitPerMinute: 1000, active: true });
    expect(rolled.body.rawKey).toMatch(/^wms_/);
    expect(rolled.body.rawKey).not.toBe(key.rawKey);
    expect(rolled.body.keyPrefix).toBe(rolled.body.rawKey.slice(0, 10));
    expect(detail.body).toMatchObject({
      keyPrefix: rolled.body.keyPrefix,
      rolledAt: expect.any(String),
      previousKey: { keyPrefix: key.keyPrefix, expiresAt: expect.any(String) },
    });
    expect(Date.parse(detail.body.previousKey!.expiresAt) - Date.now()).toBeGreaterThan(3_500_000);
    expect(detail.body.rawKey).toBeUndefined();
    for (const base of [gateway.url, other.url]) {
      expect(await call(key.rawKey, base)).toBe(404);
      expect(await call(rolled.body.rawKey, base)).toBe(404);
    }
  });

  it('when the previous raw key is revoked, it stops on every replica at once; the current key keeps working', async () => {
    const key = await createApiKey(ctx);
    const rolled = await admin('POST', `/api-keys/${key.id}/roll`, { graceSeconds: 3600 });
    expect(await call(key.rawKey, other.url)).toBe(404);

    const revoked = await admin('POST', `/api-keys/${key.id}/revoke-previous`);

    expect(revoked.status).toBe(200);
    expect(revoked.body.previousKey).toBeNull();
    expect(await call(key.rawKey)).toBe(401);
    expect(await refusedWithinASecond(key.rawKey, other.url)).toBe(401);
    expect(await call(rolled.body.rawKey, other.url)).toBe(404);
  });

  it('when the key itself is revoked during a grace period, both raw keys stop on every replica', async () => {
    const key = await createApiKey(ctx);
    const rolled = await admin('POST', `/api-keys/${key.id}/roll`, { graceSeconds: 3600 });
    expect(await call(rolled.body.rawKey, other.url)).toBe(404);
    expect(await call(key.rawKey, other.url)).toBe(404);

    await admin('POST', `/api-keys/${key.id}/revoke`);

    expect(await refusedWithinASecond(rolled.body.rawKey, other.url)).toBe(401);
    expect(await refusedWithinASecond(key.rawKey, other.url)).toBe(401);
  });

  it('when rolled without a grace period, the old raw key stops at once on every replica', async () => {
    const key = await createApiKey(ctx);
    expect(await call(key.rawKey, other.url)).toBe(404);

    const rolled = await admin('POST', `/api-keys/${key.id}/roll`, {});

    expect(rolled.body.previousKey).toBeNull();
    expect(await call(key.rawKey)).toBe(401);
    expect(await refusedWithinASecond(key.rawKey, other.url)).toBe(401);
    expect(await call(rolled.body.rawKey, other.url)).toBe(404);
  });

  it('when a key is rolled while requests with it are in flight, none of them is refused and the new key works at once', async () => {
    const key = await createApiKey(ctx);
    let rolledAt = 0;
    const statuses: number[] = [];
    // Four clients keep calling with the old key until well after the roll has answered.
    const clients = Array.from({ length: 4 }, async () => {
      while (!rolledAt || statuses.length < 200)
        statuses.push(await call(key.rawKey, statuses.length % 2 ? other.url : gateway.url));
    });
    while (statuses.length < 20) await new Promise((resolve) => setImmediate(resolve));

    const rolled = await admin('POST', `/api-keys/${key.id}/roll`, { graceSeconds: 600 });
    rolledAt = Date.now();
    const newKeyStatuses = await Promise.all([call(rolled.body.rawKey), call(rolled.body.rawKey, other.url)]);
    await Promise.all(clients);

    expect(rolled.status).toBe(200);
    expect(statuses.length).toBeGreaterThanOrEqual(200);
    expect(statuses.every((status) => status === 404)).toBe(true);
    expect(newKeyStatuses).toEqual([404, 404]);
  });

  it('when two rolls of one key run at once, each answers its own new key and only the last one is current', async () => {
    const key = await createApiKey(ctx);

    const [a, b] = await Promise.all([
      admin('POST', `/api-keys/${key.id}/roll`, { graceSeconds: 60 }),
      admin('POST', `/api-keys/${key.id}/roll`, { graceSeconds: 60 }),
    ]);
    const detail = await admin('GET', `/api-keys/${key.id}`);
    const working = [await call(a.body.rawKey), await call(b.body.rawKey), await call(key.rawKey)];

    expect([a.status, b.status]).toEqual([200, 200]);
    expect([detail.body.keyPrefix, detail.body.previousKey!.keyPrefix].sort()).toEqual(
      [a.body.keyPrefix, b.body.keyPrefix].sort(),
    );
    // The later roll's grace covers the earlier roll's key; the original key's grace ended with it.
    expect(working.filter((status) => status === 404)).toHaveLength(2);
    expect(working[2]).toBe(401);
  });

  it('when a roll asks too long a grace, or the key is revoked, it answers 400 or 409 and the key is unchanged', async () => {
    const key = await createApiKey(ctx);
    const revokedKey = await createApiKey(ctx);
    await admin('POST', `/api-keys/${revokedKey.id}/revoke`);

    const tooLong = await admin('POST', `/api-keys/${key.id}/roll`, { graceSeconds: 7 * 24 * 3600 + 1 });
    const revoked = await admin('POST', `/api-keys/${revokedKey.id}/roll`, {});

    expect(tooLong.status).toBe(400);
    expect(revoked.status).toBe(409);
    expect(await call(key.rawKey)).toBe(404);
  });

  it('when keys are rolled and previous keys revoked, each action is audited without any raw key', async () => {
    const key = await createApiKey(ctx);
    const rolled = await admin('POST', `/api-keys/${key.id}/roll`, { graceSeconds: 60 });
    await admin('POST', `/api-keys/${key.id}/revoke-previous`);

    const audit = await admin<AuditAnswer[]>('GET', `/audit-logs?entityId=${key.id}`);

    const actions = audit.body.map((entry) => entry.action);
    expect(actions).toEqual(expect.arrayContaining(['api_key.rolled', 'api_key.previous_revoked']));
    expect(audit.body.find((entry) => entry.action === 'api_key.rolled')!.changes).toMatchObject({
      graceSeconds: 60,
      keyPrefix: { from: key.keyPrefix, to: rolled.body.keyPrefix },
    });
    expect(JSON.stringify(audit.body)).not.toContain(rolled.body.rawKey);
    expect(JSON.stringify(audit.body)).not.toContain(key.rawKey);
  });

  it('when keys expire within 14 days, list and detail say so and ?expiringWithin=P14D lists only them', async () => {
    const soon = await createApiKey(ctx, { name: 'soon', expiresAt: new Date(Date.now() + 3 * DAY) });
    const later = await createApiKey(ctx, { name: 'later', expiresAt: new Date(Date.now() + 30 * DAY) });
    const never = await createApiKey(ctx, { name: 'never' });

    const expiring = await admin<KeyAnswer[]>('GET', '/api-keys?expiringWithin=P14D');
    const withinFiveWeeks = await admin<KeyAnswer[]>('GET', '/api-keys?expiringWithin=P5W');
    const all = await admin<KeyAnswer[]>('GET', '/api-keys');
    const detail = await admin('GET', `/api-keys/${soon.id}`);
    const bad = await admin('GET', '/api-keys?expiringWithin=P1M');

    const ids = (response: { body: KeyAnswer[] }) => response.body.map((key) => key.id);
    expect(ids(expiring)).toContain(soon.id);
    expect(ids(expiring)).not.toContain(later.id);
    expect(ids(expiring)).not.toContain(never.id);
    expect(ids(withinFiveWeeks)).toEqual(expect.arrayContaining([soon.id, later.id]));
    expect(detail.body.expiresSoon).toBe(true);
    const flags = Object.fromEntries(all.body.map((key) => [key.id, key.expiresSoon]));
    expect([flags[soon.id], flags[later.id], flags[never.id]]).toEqual([true, false, false]);
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('expiringWithin');
  });
});
