import { randomUUID } from 'node:crypto';
import { adminModules, roles } from '@wms/identity';
import { openApiPath } from '@wms/platform';
import {
  TEST_ADMIN,
  answerSchemaProblems,
  answerValidator,
  createTestContext,
  createUser,
  loginAs,
  request,
  type OpenApiDocument,
  type TestContext,
  type TestGateway,
} from '@wms/testing';
import { ADMIN_BASE_PATH, ADMIN_OPENAPI_PATH, ADMIN_ROUTES } from './admin-openapi.js';

/** Answer fields that hold anything by nature: an audit entry's changes, JSON Schemas, a subscription's query. */
const FREE_FORM = new Set(['changes', 'dataSchema', 'bodySchema', 'filter']);

const operation = (route: { method: string; path: string }) => `${route.method.toUpperCase()} ${route.path}`;
const withIds = (path: string) => path.replace(/:[A-Za-z]+/g, () => randomUUID());

describe('admin API OpenAPI document', () => {
  let ctx: TestContext;
  let gateway: TestGateway;

  beforeAll(async () => {
    ctx = await createTestContext('admin-openapi');
    gateway = await ctx.startGateway();
  });
  afterAll(() => ctx.close());

  it('when the document is fetched without a token, it is OpenAPI 3.1 with the roles, modules and records the portal reads', async () => {
    const response = await request(gateway.url, 'GET', ADMIN_OPENAPI_PATH);

    expect(response.status).toBe(200);
    expect(response.body.openapi).toBe('3.1.0');
    expect(response.body.servers).toEqual([{ url: '/api/v1' }]);
    const schemas = response.body.components.schemas;
    expect(schemas.Role.enum).toEqual([...roles]);
    expect(schemas.AdminModule.enum).toEqual([...adminModules]);
    expect(schemas.Error.required).toEqual(['statusCode', 'message', 'error', 'code', 'requestId']);
    expect(schemas.CreateUser.required).toEqual(['email', 'password', 'role']);
    expect(response.body.paths['/users/{id}'].patch).toMatchObject({
      security: [{ BearerAuth: [] }],
      'x-module': 'users',
      'x-permission': 'write',
      requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/UpdateUser' } } } },
    });
    expect(response.body.paths['/auth/login'].post.security).toEqual([]);
    expect(response.body.paths['/audit-logs'].get.responses['200'].headers).toHaveProperty('X-Next-Cursor');
  });

  it('declares each route once', () => {
    const operations = ADMIN_ROUTES.map(operation);

    expect(operations.length).toBeGreaterThan(0);
    expect(new Set(operations).size).toBe(operations.length);
  });

  it('documents each declared route with the access it declares', async () => {
    const document = (await request(gateway.url, 'GET', ADMIN_OPENAPI_PATH)).body;

    const documented = ADMIN_ROUTES.map((route) => {
      const entry = document.paths[openApiPath(route.path)]?.[route.method];
      return `${operation(route)} ${entry ? String(entry['x-module'] ?? entry['x-access']) : 'undocumented'}`;
    });
    expect(documented).toEqual(
      ADMIN_ROUTES.map(
        (route) => `${operation(route)} ${typeof route.access === 'string' ? route.access : route.access.module}`,
      ),
    );
  });

  it('mounts each declared route: without a token each answers 401, where an undeclared path beside it answers 404', async () => {
    const token = await loginAs(gateway.url, TEST_ADMIN.email, TEST_ADMIN.password);
    // A path beside a route that another route declares (GET /returns/undeclared is GET /returns/:rmaNo) is not undeclared.
    const declared = (method: string, path: string) =>
      ADMIN_ROUTES.some(
        (one) => one.method === method && new RegExp(`^${one.path.replace(/:[A-Za-z]+/g, '[^/]+')}$`).test(path),
      );
    const guarded = ADMIN_ROUTES.filter(
      (one) => one.access !== 'public' && !declared(one.method, `${one.path}/undeclared`),
    );
    expect(guarded.length).toBeGreaterThan(ADMIN_ROUTES.length / 2);
    const answers: string[] = [];
    for (const route of guarded) {
      const method = route.method.toUpperCase();
      const path = `${ADMIN_BASE_PATH}${withIds(route.path)}`;
      const body = method === 'GET' ? undefined : {};
      const anonymous = await request(gateway.url, method, path, { body });
      const undeclared = await request(gateway.url, method, `${path}/undeclared`, { token, body });
      answers.push(`${operation(route)} ${anonymous.status} ${undeclared.status}`);
    }

    expect(answers).toEqual(guarded.map((route) => `${operation(route)} 401 404`));
  });

  it('when a guarded route is called without a token it answers 401, and a user without its module or role gets 403', async () => {
    const { user, password } = await createUser(ctx, { role: 'operator' });
    const token = await loginAs(gateway.url, user.email, password);
    const guarded = ADMIN_ROUTES.filter((route) => route.access !== 'public');

    const answers: { route: string; access: unknown; anonymous: number; unprivileged: number }[] = [];
    for (const route of guarded) {
      const path = `${ADMIN_BASE_PATH}${withIds(route.path)}`;
      const method = route.method.toUpperCase();
      const body = method === 'GET' ? undefined : {};
      const anonymous = await request(gateway.url, method, path, { body });
      const unprivileged = await request(gateway.url, method, path, { token, body });
      answers.push({
        route: `${method} ${route.path}`,
        access: route.access,
        anonymous: anonymous.status,
        unprivileged: unprivileged.status,
      });
    }

    expect(answers.map(({ route, anonymous }) => `${route} ${anonymous}`)).toEqual(
      answers.map(({ route }) => `${route} 401`),
    );
    const refused = answers.filter(({ access }) => access !== 'signed-in');
    expect(refused.map(({ route, unprivileged }) => `${route} ${unprivileged}`)).toEqual(
      refused.map(({ route }) => `${route} 403`),
    );
  });

  it('when records are read, their answers carry every field the document marks required', async () => {
    const token = await loginAs(gateway.url, TEST_ADMIN.email, TEST_ADMIN.password);
    const document = (await request(gateway.url, 'GET', ADMIN_OPENAPI_PATH)).body;
    const required = (name: string) => [...document.components.schemas[name].required].map(String);
    const me = await request(gateway.url, 'GET', '/api/v1/auth/me', { token });
    const created = await request(gateway.url, 'POST', '/api/v1/api-keys', {
      token,
      body: { name: 'documented', scopes: ['read'] },
    });
    const record = await request(gateway.url, 'GET', `/api/v1/users/${me.body.id}`, { token });
    const stats = await request(gateway.url, 'GET', `/api/v1/api-keys/${created.body.id}/stats`, { token });
    const overview = await request(gateway.url, 'GET', '/api/v1/overview', { token });
    const users = await request(gateway.url, 'GET', '/api/v1/users?limit=1', { token });
    const subscription = await request(gateway.url, 'POST', '/api/v1/webhooks', {
      token,
      body: { url: 'https://93.184.215.14/hooks', events: ['order.shipped'], ordered: true },
    });

    expect(Object.keys(me.body)).toEqual(expect.arrayContaining(required('User')));
    expect(Object.keys(record.body)).toEqual(expect.arrayContaining(required('UserRecord')));
    expect(Object.keys(created.body)).toEqual(expect.arrayContaining(required('CreatedApiKey')));
    expect(Object.keys(stats.body)).toEqual(expect.arrayContaining(required('ApiKeyStats')));
    expect(Object.keys(overview.body)).toEqual(expect.arrayContaining(required('Overview')));
    expect(Object.keys(users.body[0])).toEqual(expect.arrayContaining(required('UserRecord')));
    expect(required('UserRecord')).toEqual(expect.arrayContaining(['canManage', 'canSetCredentials']));
    expect(Object.keys(subscription.body)).toEqual(expect.arrayContaining(required('CreatedWebhookSubscription')));
    expect(required('WebhookSubscription')).toEqual(
      expect.arrayContaining(['filter', 'maxDeliveriesPerSecond', 'ordered']),
    );
    expect(document.components.schemas.Role.enum).toContain(me.body.role);
  });

  it('lists the properties and types of every answer object, open only where the body is free-form', async () => {
    const document = (await request(gateway.url, 'GET', ADMIN_OPENAPI_PATH)).body as unknown as OpenApiDocument;

    expect(answerSchemaProblems(document, FREE_FORM)).toEqual([]);
  });

  it('when routes are called, each real answer is what the document declares for its status (ajv, strict)', async () => {
    const document = (await request(gateway.url, 'GET', ADMIN_OPENAPI_PATH)).body as unknown as OpenApiDocument;
    const check = answerValidator(document);
    const token = await loginAs(gateway.url, TEST_ADMIN.email, TEST_ADMIN.password);
    const call = async (operation: string, path: string, body?: unknown, bearer: string | undefined = token) => {
      const [method] = operation.split(' ') as [string];
      const response = await request(gateway.url, method, `${ADMIN_BASE_PATH}${path}`, { token: bearer, body });
      const mediaType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim();
      return { operation, answer: { method, path, status: response.status, mediaType, body: response.body } };
    };
    const me = await call('GET /auth/me', '/auth/me');
    const key = await call('POST /api-keys', '/api-keys', { name: 'typed', scopes: ['read'] });
    const keyId = String(key.answer.body.id);
    const hook = await call('POST /webhooks', '/webhooks', {
      url: 'https://93.184.215.14/hooks',
      events: ['order.shipped'],
      filter: { warehouseCode: 'MAIN' },
    });
    const hookId = String(hook.answer.body.id);

    const calls = [
      me,
      key,
      hook,
      await call('POST /auth/login', '/auth/login', TEST_ADMIN, undefined),
      await call('POST /auth/login', '/auth/login', { email: TEST_ADMIN.email, password: 'wrong' }, undefined),
      await call('GET /users/{id}', `/users/${String(me.answer.body.id)}`),
      await call('GET /users', '/users?limit=2'),
      await call('GET /tenants', '/tenants'),
      await call('GET /warehouses', '/warehouses'),
      await call('GET /overview', '/overview'),
      await call('GET /api-keys', '/api-keys'),
      await call('GET /api-keys/{id}', `/api-keys/${keyId}`),
      await call('GET /api-keys/{id}/stats', `/api-keys/${keyId}/stats`),
      await call('GET /api-keys/{id}', `/api-keys/${randomUUID()}`),
      await call('GET /audit-logs', '/audit-logs?limit=5'),
      await call('GET /webhooks', '/webhooks'),
      await call('GET /webhooks/{id}', `/webhooks/${hookId}`),
      await call('GET /webhooks/event-types', '/webhooks/event-types'),
      await call('GET /orders/{orderNo}', '/orders/NOPE'),
      await call('GET /edi/partners', '/edi/partners'),
      await call('GET /edi/partners/{id}', `/edi/partners/${randomUUID()}`),
    ];

    expect(calls.flatMap(({ operation, answer }) => check(operation, answer))).toEqual([]);
  });
});
