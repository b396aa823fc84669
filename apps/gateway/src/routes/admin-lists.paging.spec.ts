import {
  createApiKey,
  createTenantWithWarehouse,
  createTestContext,
  createUser,
  loginAs,
  request,
  TEST_ADMIN,
  type HttpResponse,
  type TestContext,
  type TestGateway,
} from '@wms/testing';

/** Users, API keys and webhook subscriptions: a JSON array a page at a time, the next page in X-Next-Cursor and Link. */
describe('paging of the users, API keys and subscriptions lists', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let adminToken: string;
  let tenantId: string;

  beforeAll(async () => {
    ctx = await createTestContext('admin-lists-paging', { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
    gateway = await ctx.startGateway();
    adminToken = await loginAs(gateway.url, TEST_ADMIN.email, TEST_ADMIN.password);
    tenantId = (await createTenantWithWarehouse(ctx)).tenant.id;
    for (let index = 0; index < 5; index += 1) {
      await createUser(ctx, { tenantId });
      await createApiKey(ctx, { tenantId });
      const created = await request(gateway.url, 'POST', '/api/v1/webhooks', {
        token: adminToken,
        body: { url: `http://127.0.0.1:9/hook-${index}`, events: ['*'], tenantId },
      });
      if (created.status !== 201) throw new Error(`subscription not created: ${created.status}`);
    }
  });
  afterAll(() => ctx.close());

  /** Follows X-Next-Cursor from the first page to the last; every page must be a JSON array. */
  async function walk(path: string) {
    const pages: Array<Array<{ id: string }>> = [];
    let next: string | null = path;
    while (next) {
      const response: HttpResponse<Array<{ id: string }>> = await request<Array<{ id: string }>>(
        gateway.url,
        'GET',
        next,
        { token: adminToken },
      );
      expect(response.status).toBe(200);
      expect(Array.isArray(response.body)).toBe(true);
      pages.push(response.body);
      const cursor = response.headers.get('x-next-cursor');
      if (cursor) {
        expect(response.headers.get('link')).toContain('rel="next"');
        expect(response.headers.get('link')).toContain(`cursor=${encodeURIComponent(cursor)}`);
      }
      next = cursor ? `${path}&cursor=${encodeURIComponent(cursor)}` : null;
    }
    return pages;
  }

  it.each([['/api/v1/users'], ['/api/v1/api-keys'], ['/api/v1/webhooks']])(
    '%s answers pages of at most `limit`, each entry once, and no cursor on the last page',
    async (list) => {
      const whole = await request<Array<{ id: string }>>(gateway.url, 'GET', `${list}?tenantId=${tenantId}`, {
        token: adminToken,
      });

      const pages = await walk(`${list}?tenantId=${tenantId}&limit=2`);

      expect(whole.body.length).toBe(5);
      expect(whole.headers.get('x-next-cursor')).toBeNull();
      expect(pages.map((page) => page.length)).toEqual([2, 2, 1]);
      expect(pages.flat().map((entry) => entry.id)).toEqual(whole.body.map((entry) => entry.id));
    },
  );

  it.each([['/api/v1/users'], ['/api/v1/api-keys'], ['/api/v1/webhooks']])(
    '%s refuses a limit over 500, a limit of 0 and a cursor it did not issue with 400',
    async (list) => {
      const answers = await Promise.all(
        ['limit=501', 'limit=0', 'cursor=not-a-cursor'].map((query) =>
          request(gateway.url, 'GET', `${list}?${query}`, { token: adminToken }),
        ),
      );

      expect(answers.map((answer) => answer.status)).toEqual([400, 400, 400]);
    },
  );
});
