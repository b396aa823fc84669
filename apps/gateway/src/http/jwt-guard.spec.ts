import jwt from 'jsonwebtoken';
import {
  createTestContext,
  createUser,
  loginAs,
  request,
  TEST_JWT_SECRET,
  type TestContext,
  type TestGateway,
} from '@wms/testing';

function base64url(value: object): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

describe('JWT guard and module permissions', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let claims: Record<string, unknown>;

  /** The login's claims without iat/exp (jwt.sign sets them), changed as asked. */
  const body = (changes: Record<string, unknown> = {}, drop: string[] = []) => {
    const { iat: _iat, exp: _exp, ...rest } = claims;
    for (const name of drop) delete rest[name];
    return { ...rest, ...changes };
  };
  const me = (token: string) => request(gateway.url, 'GET', '/api/v1/auth/me', { token });

  beforeAll(async () => {
    ctx = await createTestContext('jwt-guard');
    gateway = await ctx.startGateway();
    const { user, password } = await createUser(ctx, { role: 'viewer' });
    const accessToken = await loginAs(gateway.url, user.email, password);
    claims = jwt.decode(accessToken) as Record<string, unknown>;
  });
  afterAll(() => ctx.close());

  describe('tokens', () => {
    it('a token issued by login passes', async () => {
      const token = jwt.sign(body(), TEST_JWT_SECRET, { algorithm: 'HS256', expiresIn: 60 });

      expect((await me(token)).status).toBe(200);
    });

    it('when the signature was made with another secret, it answers 401', async () => {
      const forged = jwt.sign(body({ role: 'admin' }), 'another-secret-of-32-characters!!', {
        algorithm: 'HS256',
        expiresIn: 60,
      });

      const response = await me(forged);

      expect(response.status).toBe(401);
      expect(response.body).toEqual({
        statusCode: 401,
        message: 'Invalid token',
        error: 'Unauthorized',
        code: 'UNAUTHORIZED',
        requestId: expect.any(String),
      });
    });

    it('when the payload was altered after signing, it answers 401', async () => {
      const [header, , signature] = jwt.sign(body(), TEST_JWT_SECRET, { algorithm: 'HS256', expiresIn: 60 }).split('.');
      const tampered = `${header}.${base64url({ ...claims, role: 'admin' })}.${signature}`;

      expect((await me(tampered)).status).toBe(401);
    });

    it('when the token says alg none and has no signature, it answers 401', async () => {
      const unsigned = `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url({ ...claims, exp: Math.floor(Date.now() / 1000) + 60 })}.`;

      expect((await me(unsigned)).status).toBe(401);
    });

    it('when the token is signed with HS512 and the right secret, it answers 401 (only HS256 is accepted)', async () => {
      const hs512 = jwt.sign(body(), TEST_JWT_SECRET, { algorithm: 'HS512', expiresIn: 60 });

      expect((await me(hs512)).status).toBe(401);
    });

    it('when the token has expired, it answers 401 Token expired', async () => {
      const past = Math.floor(Date.now() / 1000) - 120;
      const expired = jwt.sign({ ...claims, iat: past - 900, exp: past }, TEST_JWT_SECRET, { algorithm: 'HS256' });

      const response = await me(expired);

      expect(response.status).toBe(401);
      expect(response.body.message).toBe('Token expired');
    });

    it('when the token has no typ claim, it answers 401', async () => {
      const untyped = jwt.sign(body({}, ['typ']), TEST_JWT_SECRET, { algorithm: 'HS256', expiresIn: 60 });

      expect((await me(untyped)).status).toBe(401);
    });

    it('when the Authorization header is not a bearer token, it answers 401', async () => {
      const response = await request(gateway.url, 'GET', '/api/v1/auth/me', {
        headers: { authorization: 'Basic YWRtaW46YWRtaW4=' },
      });

      expect(response.status).toBe(401);
    });
  });

  describe('module permissions', () => {
    async function tokenFor(
      modules: {
        adminModules?: ('users' | 'warehouses')[];
        adminModulesWrite?: ('users' | 'warehouses')[];
      },
      role: 'viewer' | 'operator' = 'viewer',
    ) {
      const { user, password } = await createUser(ctx, { role, ...modules });
      return loginAs(gateway.url, user.email, password);
    }
    const newUser = () => ({
      email: `made-${Date.now()}-${Math.random().toString(36).slice(2)}@example.test`,
      password: 'password-123',
      role: 'viewer',
    });

    it('a viewer without the users module gets 403 on GET /users', async () => {
      const response = await request(gateway.url, 'GET', '/api/v1/users', { token: await tokenFor({}) });

      expect(response.status).toBe(403);
      expect(response.body).toEqual({
        statusCode: 403,
        message: 'Missing read permission for module users',
        error: 'Forbidden',
        code: 'FORBIDDEN',
        requestId: expect.any(String),
      });
    });

    it('a viewer with users in adminModules gets 200 on GET /users, but 403 on POST /users', async () => {
      const token = await tokenFor({ adminModules: ['users'] });

      const list = await request(gateway.url, 'GET', '/api/v1/users', { token });
      const create = await request(gateway.url, 'POST', '/api/v1/users', { token, body: newUser() });

      expect(list.status).toBe(200);
      expect(create.status).toBe(403);
      expect(create.body.message).toBe('Missing write permission for module users');
    });

    // Whom it may create is the manage-whom rule's (ranked strictly below it): an operator, a viewer.
    it('an operator with users in adminModulesWrite may create a user', async () => {
      const token = await tokenFor({ adminModules: ['users'], adminModulesWrite: ['users'] }, 'operator');

      const create = await request(gateway.url, 'POST', '/api/v1/users', { token, body: newUser() });

      expect(create.status).toBe(201);
    });

    it('the users module does not open the warehouses module', async () => {
      const response = await request(gateway.url, 'GET', '/api/v1/warehouses', {
        token: await tokenFor({ adminModules: ['users'] }),
      });

      expect(response.status).toBe(403);
    });

    it('tenants are for role admin only, whatever the modules', async () => {
      const token = await tokenFor({
        adminModules: ['users', 'warehouses'],
        adminModulesWrite: ['users', 'warehouses'],
      });

      const response = await request(gateway.url, 'GET', '/api/v1/tenants', { token });

      expect(response.status).toBe(403);
    });
  });
});
