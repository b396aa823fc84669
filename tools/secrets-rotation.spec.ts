import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { TokenService } from '@wms/identity';
import { loadConfig, createLogger } from '@wms/platform';
import { prepareDatabase } from '@wms/setup';
import { SecretBox, sealLegacy } from '@wms/webhooks';
import {
  TEST_ADMIN,
  TEST_JWT_SECRET,
  TEST_SECRETS_ENCRYPTION_KEYS,
  appendEvents,
  createSubscription,
  createTenantWithWarehouse,
  createTestContext,
  loginAs,
  request,
  sampleEvents,
  startTestWebhookWorker,
  startWebhookReceiver,
  type TestContext,
  type WebhookReceiver,
} from '@wms/testing';

const root = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..');
const NEW_KEY = `t2:${Buffer.alloc(32, 9).toString('base64')}`;

/** Runs `node tools/start.mjs secrets:reseal` (what `npm run secrets:reseal` runs after building). */
function runReseal(env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    let output = '';
    const child = spawn(process.execPath, [join(root, 'tools', 'start.mjs'), 'secrets:reseal'], {
      env: { ...env, LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

describe('secrets that rotate on their own', () => {
  let ctx: TestContext;
  let receiver: WebhookReceiver;
  let tenantId: string;

  beforeAll(async () => {
    ctx = await createTestContext('secrets-rotation', { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
    receiver = await startWebhookReceiver();
    tenantId = (await createTenantWithWarehouse(ctx)).tenant.id;
  });
  afterAll(async () => {
    await receiver.close();
    await ctx.close();
  });

  const sealedOf = async (id: string) => {
    const [rows] = (await ctx.runtime.db.sequelize.query(
      'SELECT secret_sealed AS "sealed" FROM webhook_subscriptions WHERE id = :id',
      { replacements: { id } },
    )) as [Array<{ sealed: string }>, unknown];
    return rows[0]!.sealed;
  };
  const setSealed = (id: string, sealed: string) =>
    ctx.runtime.db.sequelize.query('UPDATE webhook_subscriptions SET secret_sealed = :sealed WHERE id = :id', {
      replacements: { id, sealed },
    });

  it('when secrets were sealed under the former JWT_SECRET-derived key, start-up re-seals them under the key ring and delivery goes on', async () => {
    const subscription = await createSubscription(ctx, { url: receiver.urlFor('/legacy'), tenantId });
    await setSealed(subscription.id, sealLegacy(TEST_JWT_SECRET, subscription.secret));

    await prepareDatabase(ctx.config, createLogger({ level: 'silent', name: 'test' }));
    const worker = startTestWebhookWorker(ctx);
    await appendEvents(ctx, [sampleEvents(tenantId)[1]!]);
    const [message] = await receiver.waitForRequests('/legacy', 1);
    await worker.close();

    expect(await sealedOf(subscription.id)).toMatch(/^v2:t1:/);
    expect(() =>
      new Webhook(subscription.secret).verify(message!.body, message!.headers as Record<string, string>),
    ).not.toThrow();
  });

  it('when a development database gets SECRETS_ENCRYPTION_KEYS later, secrets sealed under the development key are re-sealed at start-up', async () => {
    const subscription = await createSubscription(ctx, { url: receiver.urlFor('/dev'), tenantId });
    const development = SecretBox.fromConfig(
      loadConfig({ ...ctx.env, NODE_ENV: 'development', SECRETS_ENCRYPTION_KEYS: '' }),
    );
    await setSealed(subscription.id, development.seal(subscription.secret));
    const sealedInDevelopment = await sealedOf(subscription.id);

    await prepareDatabase({ ...ctx.config, nodeEnv: 'development' }, createLogger({ level: 'silent', name: 'test' }));

    expect(sealedInDevelopment).toMatch(/^v2:derived:/);
    expect(await sealedOf(subscription.id)).toMatch(/^v2:t1:/);
    expect(SecretBox.fromConfig(ctx.config).open(await sealedOf(subscription.id))).toBe(subscription.secret);
  });

  it('when JWT_SECRET changes, sealed secrets stay readable, and a new first key plus secrets:reseal moves every secret to it', async () => {
    const subscription = await createSubscription(ctx, { url: receiver.urlFor('/ring'), tenantId });
    const env = { ...ctx.env, JWT_SECRET: 'a-brand-new-jwt-secret-after-a-leak!' };
    const readableAfterJwtChange = SecretBox.fromConfig(loadConfig(env)).open(await sealedOf(subscription.id));

    const ring = `${NEW_KEY},${TEST_SECRETS_ENCRYPTION_KEYS}`;
    const resealed = await runReseal({ ...env, SECRETS_ENCRYPTION_KEYS: ring });
    const again = await runReseal({ ...env, SECRETS_ENCRYPTION_KEYS: ring });
    const newOnly = SecretBox.fromConfig(loadConfig({ ...env, SECRETS_ENCRYPTION_KEYS: NEW_KEY }));

    expect(readableAfterJwtChange).toBe(subscription.secret);
    expect(resealed.code).toBe(0);
    expect(again.code).toBe(0);
    expect(await sealedOf(subscription.id)).toMatch(/^v2:t2:/);
    expect(newOnly.open(await sealedOf(subscription.id))).toBe(subscription.secret);
    expect(again.output).toMatch(/"resealed":0/);
    expect(resealed.output).not.toContain(subscription.secret.slice(6));
  });

  it('when a sealed secret opens with no key of the ring, the command names it and exits 1', async () => {
    const subscription = await createSubscription(ctx, { url: receiver.urlFor('/lost'), tenantId });
    await setSealed(subscription.id, `v2:gone:${Buffer.alloc(40, 1).toString('base64')}`);

    const result = await runReseal({ ...ctx.env });
    await ctx.runtime.db.sequelize.query('DELETE FROM webhook_subscriptions WHERE id = :id', {
      replacements: { id: subscription.id },
    });

    expect(result.code).toBe(1);
    expect(result.output).toContain(subscription.id);
  });

  it('when JWT_SECRET is rotated with JWT_SECRET_PREVIOUS set, tokens of the old secret still work; new ones use only the new', async () => {
    const before = await ctx.startGateway();
    const oldToken = await loginAs(before.url, TEST_ADMIN.email, TEST_ADMIN.password);
    const rotated = await ctx.startGateway({
      JWT_SECRET: 'the-next-jwt-secret-32-characters!!',
      JWT_SECRET_PREVIOUS: TEST_JWT_SECRET,
    });
    const withoutPrevious = await ctx.startGateway({ JWT_SECRET: 'the-next-jwt-secret-32-characters!!' });

    const accepted = await request(rotated.url, 'GET', '/api/v1/auth/me', { token: oldToken });
    const refused = await request(withoutPrevious.url, 'GET', '/api/v1/auth/me', { token: oldToken });
    const newToken = await loginAs(rotated.url, TEST_ADMIN.email, TEST_ADMIN.password);
    const oldVerifier = new TokenService(loadConfig(ctx.env).jwt);

    expect(accepted.status).toBe(200);
    expect(refused.status).toBe(401);
    expect(() => oldVerifier.verifyAccess(newToken)).toThrow();
    expect((await request(withoutPrevious.url, 'GET', '/api/v1/auth/me', { token: newToken })).status).toBe(200);
  });
});
