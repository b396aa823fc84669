import { Agent, request as httpRequest, type IncomingMessage } from 'node:http';
import { createTestContext, startAppProcess, waitFor, type AppProcess, type TestContext } from '@wms/testing';

interface Answer {
  status: number;
  connection: string | undefined;
  reusedSocket: boolean;
}

/** A GET through `agent` (one kept-alive socket), with whether it went on the socket already open. */
function get(agent: Agent, url: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { agent }, (res: IncomingMessage) => {
      res.resume();
      res.on('end', () =>
        resolve({ status: res.statusCode!, connection: res.headers.connection, reusedSocket: req.reusedSocket }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

// The built gateway as a process of its own, stopped with SIGTERM as a container runtime stops it.
describe('the gateway on SIGTERM', () => {
  let ctx: TestContext;
  let gateway: AppProcess | undefined;

  beforeAll(async () => {
    ctx = await createTestContext('server-drain');
  });
  afterAll(async () => {
    await gateway?.kill();
    await ctx?.close();
  });

  it('answers a request sent on an idle keep-alive socket just after the signal, with Connection: close', async () => {
    gateway = await startAppProcess('gateway', { ...ctx.env, LOG_LEVEL: 'info' });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const first = await get(agent, `${gateway.url}/health/live`);
      expect(first).toEqual({ status: 200, connection: 'keep-alive', reusedSocket: false });

      const exited = new Promise((resolve) => gateway!.child.once('exit', resolve));
      gateway.child.kill('SIGTERM');
      await waitFor(() => gateway!.output().includes('shutting down'), 10_000, 'the gateway to begin its drain');
      const during = await get(agent, `${gateway.url}/health/live`);

      expect(during).toEqual({ status: 200, connection: 'close', reusedSocket: true });
      await exited;
      expect(gateway.child.exitCode).toBe(0);
    } finally {
      agent.destroy();
    }
  });
});
