import {
  TEST_ADMIN,
  createTestContext,
  waitFor,
  createUser,
  loginAs,
  request,
  type TestContext,
  type TestGateway,
} from '@wms/testing';
import { Worker } from 'bullmq';
import { randomUUID } from 'node:crypto';
import { userModel } from '@wms/identity';
import { createRedis, queuePrefix } from '@wms/platform';
import { INGEST_QUEUE, createIngestQueue } from '@wms/ingest';

const CONSOLE = '/admin/queues';
const SESSION = '/api/v1/auth/queue-console-session';

describe('queue console at /admin/queues', () => {
  let ctx: TestContext;
  let gateway: TestGateway;
  let adminToken: string;
  let managerToken: string;

  beforeAll(async () => {
    ctx = await createTestContext('queue-console');
    gateway = await ctx.startGateway();
    adminToken = await loginAs(gateway.url, TEST_ADMIN.email, TEST_ADMIN.password);
    const manager = await createUser(ctx, { role: 'manager' });
    managerToken = await loginAs(gateway.url, manager.user.email, manager.password);
  });
  afterAll(() => ctx.close());

  const open = (headers: Record<string, string> = {}, path = `${CONSOLE}/`) =>
    fetch(`${gateway.url}${path}`, { headers, redirect: 'manual' });
  const sessionCookie = (response: Response) => response.headers.get('set-cookie') ?? '';
  const cookieValue = (setCookie: string) => /^wms_queue_console=([^;]*)/.exec(setCookie)?.[1] ?? '';

  it('when no credentials come, the console and its API answer 401', async () => {
    expect((await open()).status).toBe(401);
    expect((await open({}, `${CONSOLE}/api/queues`)).status).toBe(401);
  });

  it('when the session cookie is not valid percent-encoding, the console answers 401 as without one', async () => {
    expect((await open({ cookie: 'wms_queue_console=%ZZ' })).status).toBe(401);
    expect((await open({ cookie: 'wms_queue_console=%E0%A4%A' }, `${CONSOLE}/api/queues`)).status).toBe(401);
  });

  it('when a signed-in user is not an admin, the console answers 403', async () => {
    expect((await open({ authorization: `Bearer ${managerToken}` })).status).toBe(403);
    expect((await request(gateway.url, 'POST', SESSION, { token: managerToken })).status).toBe(403);
  });

  it('an admin bearer token opens Bull Board over the ingest, maintenance and webhook queues, under a CSP of its own', async () => {
    const page = await open({ authorization: `Bearer ${adminToken}` });
    const queues = await open({ authorization: `Bearer ${adminToken}` }, `${CONSOLE}/api/queues`);

    expect(page.status).toBe(200);
    expect(await page.text()).toContain(`<base href="${CONSOLE}/"`);
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('https:');
    expect(queues.status).toBe(200);
    const names = ((await queues.json()) as { queues: Array<{ name: string; readOnlyMode: boolean }> }).queues;
    expect(names.map((queue) => [queue.name, queue.readOnlyMode]).sort()).toEqual([
      ['ingest', false],
      ['maintenance', true],
      ['webhook-delivery', true],
    ]);
  });

  it('an admin opens a session: an httpOnly, SameSite=Strict cookie for the console path only, and the browser gets in with it', async () => {
    const session = await fetch(`${gateway.url}${SESSION}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}` },
    });

    expect(session.status).toBe(200);
    const setCookie = sessionCookie(session);
    expect(setCookie).toMatch(/^wms_queue_console=[^;]+;/);
    expect(setCookie).toContain('Path=/admin/queues');
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Strict');
    expect(setCookie).toContain('Max-Age=900');
    const body = await session.text();
    expect(body).not.toContain(cookieValue(setCookie));
    expect(JSON.parse(body)).toEqual({ url: `${CONSOLE}/`, expiresIn: 900 });
    const cookie = `wms_queue_console=${cookieValue(setCookie)}`;
    const page = await open({ cookie });
    expect(page.status).toBe(200);
    const script = /src="(static\/js\/[^"]+\.js)"/.exec(await page.text())![1];
    expect((await open({ cookie }, `${CONSOLE}/${script}`)).status).toBe(200);
    expect((await open({ cookie }, `${CONSOLE}/api/queues`)).status).toBe(200);
  });

  it('the console token opens nothing else, and an access token in the cookie does not open the console', async () => {
    const session = await request(gateway.url, 'POST', SESSION, { token: adminToken });
    const consoleToken = cookieValue(session.headers.get('set-cookie') ?? '');

    expect((await request(gateway.url, 'GET', '/api/v1/users', { token: consoleToken })).status).toBe(401);
    expect((await open({ cookie: `wms_queue_console=${adminToken}` })).status).toBe(401);
    expect((await open({ cookie: `wms_queue_console=${consoleToken.slice(0, -2)}xx` })).status).toBe(401);
  });

  it('when the admin is disabled after opening a session, the cookie no longer opens the console', async () => {
    const admin = await createUser(ctx, { role: 'admin' });
    const token = await loginAs(gateway.url, admin.user.email, admin.password);
    const session = await request(gateway.url, 'POST', SESSION, { token });
    const cookie = `wms_queue_console=${cookieValue(session.headers.get('set-cookie') ?? '')}`;
    expect((await open({ cookie })).status).toBe(200);

    await userModel(ctx.runtime.db).update({ status: 'inactive' }, { where: { id: admin.user.id } });

    expect((await open({ cookie })).status).toBe(401);
  });

  it('DELETE ends the session by expiring the cookie on the console path', async () => {
    const ended = await fetch(`${gateway.url}${SESSION}`, { method: 'DELETE' });

    expect(ended.status).toBe(204);
    const setCookie = sessionCookie(ended);
    expect(setCookie).toMatch(/^wms_queue_console=;/);
    expect(setCookie).toContain('Path=/admin/queues');
    expect(setCookie).toMatch(/Expires=Thu, 01 Jan 1970/);
  });

  describe('the ingest queue, read-only but for retrying a failed job', () => {
    /** A job of the ingest queue that a worker failed once and for all. */
    async function failedIngestJob(): Promise<{ id: string; state: () => Promise<string> }> {
      const connection = createRedis(ctx.config, 'worker', 'queue-console-spec');
      const queue = createIngestQueue({ connection, prefix: queuePrefix(ctx.config) });
      const job = await queue.add(
        'items',
        { tenantId: randomUUID(), apiKeyId: randomUUID(), requestId: randomUUID() },
        { attempts: 1 },
      );
      const worker = new Worker(
        INGEST_QUEUE,
        async () => {
          throw new Error('refused on purpose');
        },
        { connection, prefix: queuePrefix(ctx.config) },
      );
      await waitFor(async () => (await job.getState()) === 'failed', 15_000, 'the ingest job to fail');
      await worker.close();
      ctx.onClose(async () => {
        await queue.close();
        connection.disconnect();
      });
      return { id: job.id!, state: () => job.getState() };
    }

    const act = (method: string, path: string) =>
      fetch(`${gateway.url}${CONSOLE}/api/queues/${path}`, {
        method,
        headers: { authorization: `Bearer ${adminToken}` },
      });

    it('refuses pausing, emptying, obliterating, cleaning, adding, promoting and pausing all with 403', async () => {
      const job = await failedIngestJob();

      const answers = await Promise.all([
        act('PUT', 'ingest/pause'),
        act('PUT', 'ingest/empty'),
        act('PUT', 'ingest/obliterate'),
        act('PUT', 'ingest/clean/failed'),
        act('POST', 'ingest/add'),
        act('PUT', 'ingest/promote'),
        act('PUT', `ingest/${job.id}/clean`),
        act('PUT', 'pause'),
      ]);

      expect(answers.map((answer) => answer.status)).toEqual([403, 403, 403, 403, 403, 403, 403, 403]);
      expect(await job.state()).toBe('failed');
    });

    it('retries a failed job (it waits again), and retries all failed jobs', async () => {
      const one = await failedIngestJob();
      const other = await failedIngestJob();

      const single = await act('PUT', `ingest/${one.id}/retry`);
      const all = await act('PUT', 'ingest/retry/failed');

      expect(single.status).toBe(204);
      expect(all.status).toBe(200);
      expect(await one.state()).toBe('waiting');
      expect(await other.state()).toBe('waiting');
    });

    it('refuses retrying a job that has not failed', async () => {
      const job = await failedIngestJob();
      await act('PUT', `ingest/${job.id}/retry`);

      const again = await act('PUT', `ingest/${job.id}/retry`);

      expect(again.status).toBe(403);
    });
  });
});
