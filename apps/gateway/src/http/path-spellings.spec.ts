import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  TEST_ADMIN,
  createApiKey,
  createMasterData,
  createTestContext,
  defaultTenantId,
  request,
  type TestContext,
  type TestGateway,
} from '@wms/testing';

/** Every .ts file under a folder, specs left out. */
function sources(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

describe('a path is answered only in the spelling its route declares', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let apiKey: string;

  beforeAll(async () => {
    ctx = await createTestContext('path-spellings');
    gateway = await ctx.startGateway();
    const tenantId = await defaultTenantId(ctx);
    await createMasterData(ctx, tenantId, { items: [{ sku: 'CASE-1' }] });
    apiKey = (await createApiKey(ctx, { tenantId })).rawKey;
  });
  afterAll(() => ctx.close());

  const login = (path: string) =>
    request(gateway.url, 'POST', path, { body: { email: TEST_ADMIN.email, password: TEST_ADMIN.password } });
  const stock = (path: string) =>
    request(gateway.url, 'GET', `${path}?sku=CASE-1`, { headers: { 'x-api-key': apiKey } });

  it('when sign-in and the stock inquiry are called as declared, their answers carry Cache-Control: no-store', async () => {
    const signedIn = await login('/api/v1/auth/login');
    const inquiry = await stock('/api/v1/integration/v1/stock');

    expect(signedIn.status).toBe(200);
    expect(signedIn.headers.get('cache-control')).toBe('no-store');
    expect(inquiry.status).toBe(200);
    expect(inquiry.headers.get('cache-control')).toBe('no-store');
  });

  it('when they are called in another case, they answer 404 with no token or stock, and no-store', async () => {
    const answers = [
      await login('/API/v1/auth/login'),
      await login('/api/V1/auth/login'),
      await login('/api/v1/AUTH/login'),
      await login('/api/v1/auth/Login'),
      await stock('/API/V1/integration/v1/stock'),
      await stock('/api/v1/Integration/v1/stock'),
      await stock('/api/v1/integration/v1/STOCK'),
    ];

    for (const answer of answers) {
      expect(answer.status).toBe(404);
      expect(answer.headers.get('cache-control')).toBe('no-store');
      const text = JSON.stringify(answer.body);
      expect(text).not.toMatch(/accessToken|refreshToken|totalOnHand/);
    }
  });

  it('every router of the gateway is made case-sensitive, through one helper', () => {
    const bare = sources(join(import.meta.dirname, '..')).filter((file) =>
      /\bRouter\(\s*\)|express\.Router\(/.test(readFileSync(file, 'utf8')),
    );

    expect(bare).toEqual([]);
  });
});
