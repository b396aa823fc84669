import { randomUUID } from 'node:crypto';
import { openApiPath } from '@wms/platform';
import { TEST_ADMIN, createTestContext, loginAs, request, type TestContext, type TestGateway } from '@wms/testing';
import { ADMIN_BASE_PATH, ADMIN_OPENAPI_PATH, DECLARED_ADMIN_ROUTES } from './admin-openapi.js';

const withIds = (path: string) => path.replace(/:[A-Za-z]+/g, () => randomUUID());
const operation = (route: { method: string; path: string }) => `${route.method.toUpperCase()} ${route.path}`;

// The admin routes declared once (routes/admin-route.ts): the gateway's router and the admin document are
// made from the same entries, so each entry is in the document and answers at its path, guarded as declared.
describe('the admin routes declared once', () => {
  let ctx: TestContext;
  let gateway: TestGateway;

  beforeAll(async () => {
    ctx = await createTestContext('admin-declarations');
    gateway = await ctx.startGateway();
  });
  afterAll(() => ctx.close());

  it('are declared once each', () => {
    const operations = DECLARED_ADMIN_ROUTES.map(operation);

    expect(operations.length).toBeGreaterThan(0);
    expect(new Set(operations).size).toBe(operations.length);
  });

  it('are each in the admin document, with the access they declare', async () => {
    const document = (await request(gateway.url, 'GET', ADMIN_OPENAPI_PATH)).body;

    const documented = DECLARED_ADMIN_ROUTES.map((route) => {
      const entry = document.paths[openApiPath(route.path)]?.[route.method];
      return `${operation(route)} ${entry ? String(entry['x-module'] ?? entry['x-access']) : 'undocumented'}`;
    });
    expect(documented).toEqual(
      DECLARED_ADMIN_ROUTES.map(
        (route) => `${operation(route)} ${typeof route.access === 'string' ? route.access : route.access.module}`,
      ),
    );
  });

  it('are each mounted: without a token each answers 401, where an undeclared path beside it answers 404', async () => {
    const token = await loginAs(gateway.url, TEST_ADMIN.email, TEST_ADMIN.password);
    const answers: string[] = [];
    for (const route of DECLARED_ADMIN_ROUTES.filter((one) => one.access !== 'public')) {
      const method = route.method.toUpperCase();
      const path = `${ADMIN_BASE_PATH}${withIds(route.path)}`;
      const body = method === 'GET' ? undefined : {};
      const anonymous = await request(gateway.url, method, path, { body });
      const undeclared = await request(gateway.url, method, `${path}/undeclared`, { token, body });
      answers.push(`${operation(route)} ${anonymous.status} ${undeclared.status}`);
    }

    expect(answers).toEqual(
      DECLARED_ADMIN_ROUTES.filter((one) => one.access !== 'public').map((route) => `${operation(route)} 401 404`),
    );
  });
});
