import { QueryTypes } from 'sequelize';
import {
  TEST_ADMIN,
  createTestContext,
  createUser,
  loginAs,
  request,
  type TestContext,
  type TestGateway,
} from '@wms/testing';

/** The text in fullwidth forms (`ｓ４`), which NFKC folds back to ASCII. */
const fullwidth = (text: string) =>
  text.replace(/[a-z0-9]/gi, (char) => String.fromCodePoint(char.codePointAt(0)! + 0xfee0));

const INVISIBLE = {
  'a zero-width space': '\u200b',
  'a zero-width joiner': '\u200d',
  'a soft hyphen': '\u00ad',
  'a right-to-left override': '\u202e',
  'a byte-order mark': '\ufeff',
};

describe('e-mails are compared and stored in one form: look-alike accounts cannot be made', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let adminToken: string;

  beforeAll(async () => {
    ctx = await createTestContext('look-alike-emails', { AUTH_ALLOW_REGISTRATION: 'true' });
    gateway = await ctx.startGateway();
    adminToken = await loginAs(gateway.url, TEST_ADMIN.email, TEST_ADMIN.password);
  });
  afterAll(() => ctx.close());

  const createAs = (email: string) =>
    request(gateway.url, 'POST', '/api/v1/users', {
      token: adminToken,
      body: { email, password: 'look-alike-password', role: 'viewer' },
    });
  const register = (email: string) =>
    request(gateway.url, 'POST', '/api/v1/auth/register', {
      body: { email, password: 'look-alike-password', firstName: 'Look', lastName: 'Alike' },
    });

  it('when an admin creates the fullwidth form of an existing e-mail, it answers 409 and no second user', async () => {
    await createUser(ctx, { email: 's4-look@example.test' });

    const twin = await createAs(`${fullwidth('s4-look')}@example.test`);
    const upper = await createAs(`  ${fullwidth('S4-LOOK')}@EXAMPLE.TEST `);

    expect(twin.status).toBe(409);
    expect(twin.body).toMatchObject({ code: 'USER_EXISTS' });
    expect(upper.status).toBe(409);
  });

  it('when a new user is given a fullwidth e-mail, it is stored in ASCII and signs in with either spelling', async () => {
    const created = await createAs(`${fullwidth('wide')}@example.test`);

    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ email: 'wide@example.test' });
    expect(await loginAs(gateway.url, 'wide@example.test', 'look-alike-password')).toEqual(expect.any(String));
    expect(await loginAs(gateway.url, `${fullwidth('WIDE')}@example.test`, 'look-alike-password')).toEqual(
      expect.any(String),
    );
  });

  it.each(Object.entries(INVISIBLE))(
    'when an e-mail holds %s, create, update, register and sign-in answer 400 naming email and store nothing',
    async (_name, character) => {
      const existing = await createUser(ctx, { email: `plain-${character.codePointAt(0)}@example.test` });
      const hidden = `pl${character}ain-${character.codePointAt(0)}@example.test`;

      const answers = [
        await createAs(hidden),
        await request(gateway.url, 'PATCH', `/api/v1/users/${existing.user.id}`, {
          token: adminToken,
          body: { email: `other${character}@example.test` },
        }),
        await register(hidden),
        await request(gateway.url, 'POST', '/api/v1/auth/login', {
          body: { email: `${existing.user.email}${character}`, password: existing.password },
        }),
      ];

      for (const answer of answers) {
        expect(answer.status).toBe(400);
        expect(answer.body).toMatchObject({
          code: 'VALIDATION_FAILED',
          details: [{ path: 'email', message: 'email must not contain invisible characters' }],
        });
      }
      const stored = await ctx.runtime.db.sequelize.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM users WHERE strpos(email, $1) > 0`,
        { bind: [character], type: QueryTypes.SELECT },
      );
      expect(stored).toEqual([{ n: 0 }]);
    },
  );

  it('when someone registers the fullwidth form of an existing e-mail, it answers 409', async () => {
    await createUser(ctx, { email: 'self@example.test' });

    const twin = await register(`${fullwidth('self')}@example.test`);

    expect(twin.status).toBe(409);
  });
});
