import { QueryTypes } from 'sequelize';
import { ACCOUNT_NOT_ACTIVE, INVALID_CREDENTIALS, addressDigest } from '@wms/identity';
import { RetentionSweeper } from '@wms/setup';
import {
  createTestContext,
  createUser,
  request,
  type HttpResponse,
  type TestContext,
  type TestGateway,
} from '@wms/testing';

const MAX_FAILED = 5;
const ATTEMPTS = 7;

/** Status and body of an answer, without what differs on every request. */
const answerOf = ({ status, body }: HttpResponse) => {
  const { requestId: _requestId, ...rest } = body as Record<string, unknown>;
  return { status, body: rest };
};

describe('the lockout does not tell which e-mails have accounts', () => {
  let ctx: TestContext;
  let untilUnlocked: TestGateway;
  let expiring: TestGateway;

  beforeAll(async () => {
    ctx = await createTestContext('auth-lockout-enumeration', {
      LOGIN_MAX_FAILED_ATTEMPTS: String(MAX_FAILED),
      LOGIN_FAILURES_PER_IP_PER_MINUTE: '1000',
    });
    untilUnlocked = await ctx.startGateway();
    expiring = await ctx.startGateway({ LOGIN_LOCK_SECONDS: '900' });
  });
  afterAll(() => ctx.close());

  const login = (gateway: TestGateway, email: string, password: string) =>
    request(gateway.url, 'POST', '/api/v1/auth/login', { body: { email, password } });
  const attempts = async (gateway: TestGateway, email: string, password: string, count = ATTEMPTS) => {
    const answers = [];
    for (let i = 0; i < count; i++) answers.push(answerOf(await login(gateway, email, password)));
    return answers;
  };
  /** Moves the start of an address's lock into the past, as if that many seconds had gone by. */
  const addressLockedSecondsAgo = (email: string, seconds: number) =>
    ctx.runtime.db.sequelize.query(
      `UPDATE login_address_locks SET locked_at = now() - make_interval(secs => $2) WHERE address_digest = $1`,
      { bind: [addressDigest(email), seconds] },
    );

  it(`when ${ATTEMPTS} wrong passwords are tried for an existing and for a missing e-mail, the two sequences are identical`, async () => {
    const { user } = await createUser(ctx);

    const existing = await attempts(untilUnlocked, user.email, 'wrong-password');
    const missing = await attempts(untilUnlocked, 'nobody-here@example.test', 'wrong-password');

    expect(missing).toEqual(existing);
    expect(existing.map((answer) => answer.body.message)).toEqual([
      ...Array<string>(MAX_FAILED).fill(INVALID_CREDENTIALS),
      ...Array<string>(ATTEMPTS - MAX_FAILED).fill(ACCOUNT_NOT_ACTIVE),
    ]);
    expect(existing.every((answer) => answer.status === 401)).toBe(true);
  });

  it('when a locked missing e-mail is tried in another spelling (case, fullwidth), it answers locked too', async () => {
    await attempts(untilUnlocked, 'spelt@example.test', 'wrong-password', MAX_FAILED);

    const upper = answerOf(await login(untilUnlocked, 'SPELT@example.test', 'any-password'));
    const wide = answerOf(await login(untilUnlocked, 'ｓｐｅｌｔ@example.test', 'any-password'));

    for (const answer of [upper, wide])
      expect(answer).toEqual({
        status: 401,
        body: expect.objectContaining({ code: 'ACCOUNT_NOT_ACTIVE', message: ACCOUNT_NOT_ACTIVE }),
      });
  });

  it('a disabled account still answers inactive or locked at once, while a missing e-mail answers as a wrong password', async () => {
    const { user, password } = await createUser(ctx, { status: 'inactive' });

    const disabled = answerOf(await login(untilUnlocked, user.email, password));
    const missing = answerOf(await login(untilUnlocked, 'never-seen@example.test', password));

    expect(disabled.body).toMatchObject({ code: 'ACCOUNT_NOT_ACTIVE', message: ACCOUNT_NOT_ACTIVE });
    expect(missing.body).toMatchObject({ code: 'INVALID_CREDENTIALS', message: INVALID_CREDENTIALS });
  });

  it('with LOGIN_LOCK_SECONDS set, a missing e-mail stays locked while the lock runs and is judged anew after it', async () => {
    const email = 'expiring@example.test';
    await attempts(expiring, email, 'wrong-password', MAX_FAILED);
    await addressLockedSecondsAgo(email, 899);
    const running = answerOf(await login(expiring, email, 'wrong-password'));
    await addressLockedSecondsAgo(email, 901);

    const after = await attempts(expiring, email, 'wrong-password', MAX_FAILED + 1);

    expect(running.body).toMatchObject({ code: 'ACCOUNT_NOT_ACTIVE' });
    expect(after.map((answer) => answer.body.code)).toEqual([
      ...Array<string>(MAX_FAILED).fill('INVALID_CREDENTIALS'),
      'ACCOUNT_NOT_ACTIVE',
    ]);
  });

  it('the retention sweep forgets missing e-mails not tried for ADDRESS_MEMORY_DAYS, and keeps the others', async () => {
    await attempts(untilUnlocked, 'old@example.test', 'wrong-password', 1);
    await attempts(untilUnlocked, 'recent@example.test', 'wrong-password', 1);
    await ctx.runtime.db.sequelize.query(
      `UPDATE login_address_locks SET updated_at = now() - interval '31 days' WHERE address_digest = $1`,
      { bind: [addressDigest('old@example.test')] },
    );

    const result = await new RetentionSweeper(
      ctx.runtime.db,
      ctx.config,
      ctx.services.idempotency,
      ctx.runtime.logger,
    ).sweep();

    expect(result.loginAddresses).toBe(1);
    const kept = await ctx.runtime.db.sequelize.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM login_address_locks WHERE address_digest = ANY($1)`,
      { bind: [[addressDigest('old@example.test'), addressDigest('recent@example.test')]], type: QueryTypes.SELECT },
    );
    expect(kept).toEqual([{ n: 1 }]);
  });
});
