import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { connect, createServer } from 'node:net';
import { request as httpRequest } from 'node:http';
import { createTestContext, waitFor, type TestContext } from '@wms/testing';

// The built apps, started as real processes over this file's database and Redis key space.
const root = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

function startProcess(app: string, env: NodeJS.ProcessEnv): { child: ChildProcess; output: () => string } {
  let output = '';
  const child = spawn(process.execPath, [join(root, 'apps', app, 'dist', 'main.js')], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  return { child, output: () => output };
}

function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve(child.exitCode);
    child.once('exit', (code) => resolve(code));
  });
}

/** The gateway's gauge of requests in flight, read from its metrics (the scrape itself included). */
async function requestsInFlight(port: number): Promise<number> {
  const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  return Number(/^http_requests_in_flight(?:\{[^}]*\})? (\d+)/m.exec(metrics)?.[1] ?? 0);
}

/** Waits until `url` answers 200 (a process still starting refuses the connection). */
async function answering(url: string): Promise<Response> {
  const response = await waitFor(
    () => fetch(url).catch(() => null),
    (candidate) => candidate?.status === 200,
    15_000,
    `${url} to answer 200`,
  );
  return response!;
}

describe('app processes', () => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await createTestContext('processes');
  });
  afterAll(() => ctx.close());

  it('when the gateway gets SIGTERM during a request, the request completes and the process exits 0', async () => {
    const port = await freePort();
    const gateway = startProcess('gateway', { ...ctx.env, PORT: String(port), LOG_LEVEL: 'info' });
    await answering(`http://127.0.0.1:${port}/health/live`);

    // Half a request body is on the wire when the signal arrives; the rest follows after it.
    const body = JSON.stringify({ email: 'nobody@example.test', password: 'not-the-password' });
    const req = httpRequest({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/api/v1/auth/login',
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    });
    const answer = new Promise<number>((resolve, reject) => {
      req.on('response', (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode!));
      });
      req.on('error', reject);
    });
    req.write(body.slice(0, 10));
    // The login request is in flight beside the scrape that reads the gauge.
    await waitFor(async () => (await requestsInFlight(port)) >= 2, 10_000, 'the gateway to be reading the request');
    gateway.child.kill('SIGTERM');
    await waitFor(
      () => gateway.output().includes('"msg":"shutting down"'),
      10_000,
      'the gateway to start shutting down',
    );
    req.end(body.slice(10));
    const [status, code] = await Promise.all([answer, exitOf(gateway.child)]);

    expect(status).toBe(401);
    expect(code).toBe(0);
    expect(gateway.output()).toContain('"msg":"stopped"');
  });

  it.each(['ingest-worker', 'webhook-worker', 'edi-sftp'])(
    'when %s is started, its health probe answers ready, and on SIGTERM it exits 0',
    async (app) => {
      const port = await freePort();
      const worker = startProcess(app, {
        ...ctx.env,
        WORKER_HEALTH_PORT: String(port),
        EDI_SFTP_PORT: String(await freePort()),
        LOG_LEVEL: 'info',
      });

      const ready = await answering(`http://127.0.0.1:${port}/health/ready`);
      worker.child.kill('SIGTERM');

      expect(await ready.json()).toEqual({
        status: 'ready',
        dependencies: { postgres: 'up', redis: 'up' },
        keySpace: 'claimed',
      });
      expect(await exitOf(worker.child)).toBe(0);
    },
  );

  it('when the EDI SFTP endpoint gets SIGTERM with a session open, it ends the session and exits 0', async () => {
    const port = await freePort();
    const sftpPort = await freePort();
    const sftp = startProcess('edi-sftp', {
      ...ctx.env,
      WORKER_HEALTH_PORT: String(port),
      EDI_SFTP_PORT: String(sftpPort),
      LOG_LEVEL: 'info',
    });
    await answering(`http://127.0.0.1:${port}/health/ready`);
    const socket = connect(sftpPort, '127.0.0.1');
    // The SSH identification line: the endpoint holds this connection open, waiting for a login.
    const banner = await new Promise<string>((resolve, reject) => {
      socket.once('data', (chunk) => resolve(String(chunk)));
      socket.once('error', reject);
    });
    const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));

    sftp.child.kill('SIGTERM');

    expect(banner).toMatch(/^SSH-2\.0-wms-edi-sftp/);
    await ended;
    expect(await exitOf(sftp.child)).toBe(0);
    expect(sftp.output()).toContain('"msg":"stopped"');
  });
});
