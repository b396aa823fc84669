import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { createTestContext, request, waitFor, type HttpResponse, type TestContext } from '@wms/testing';

/**
 * A gateway's Redis client connects in the background and fails fast until it has (no offline queue),
 * so a just-started gateway is briefly not ready: poll until the probe reports what we wait for.
 */
function readyWhen(url: string, accept: (response: HttpResponse) => boolean): Promise<HttpResponse> {
  return waitFor(() => request(url, 'GET', '/health/ready'), accept, 10_000, 'the readiness probe');
}

describe('health endpoints', () => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await createTestContext('health-routes');
  });
  afterAll(() => ctx.close());

  it('GET /health/live answers 200', async () => {
    const gateway = await ctx.startGateway();

    const response = await request(gateway.url, 'GET', '/health/live');

    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok' });
  });

  it('GET /health/ready answers 200 when PostgreSQL and Redis answer', async () => {
    const gateway = await ctx.startGateway();

    const response = await readyWhen(gateway.url, (answer) => answer.status === 200);

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: 'ready', dependencies: { postgres: 'up', redis: 'up' } });
  });

  it('GET /health/ready answers 503 when Redis does not answer', async () => {
    const gateway = await ctx.startGateway({ REDIS_URL: 'redis://127.0.0.1:1' });

    const response = await request(gateway.url, 'GET', '/health/ready');

    expect(response.status).toBe(503);
    expect(response.body).toMatchObject({ status: 'unavailable', dependencies: { postgres: 'up', redis: 'down' } });
  });

  it('when a gateway closes while Redis is away, none of its connections goes on trying to reach Redis', async () => {
    // A "Redis" that hangs up on every connection: every client of the gateway keeps retrying it.
    const attempts: number[] = [];
    const hangUp = createServer((socket) => {
      attempts.push(Date.now());
      socket.destroy();
    });
    await new Promise<void>((resolve) => hangUp.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = hangUp.address() as AddressInfo;
      const gateway = await ctx.startGateway({ REDIS_URL: `redis://127.0.0.1:${port}` });
      await waitFor(() => attempts.length > 0, 10_000, 'a first connection attempt');
      expect(attempts.length).toBeGreaterThan(0);

      await gateway.close();
      const closedAt = Date.now();
      // A window, not a wait: it proves that nothing connects for longer than the longest retry delay (2 s).
      // A retry already under way may still land in its first 500 ms.
      await new Promise((resolve) => setTimeout(resolve, 3_000));

      expect(attempts.filter((at) => at > closedAt + 500)).toEqual([]);
    } finally {
      await new Promise((resolve) => hangUp.close(resolve));
    }
  });

  it('GET /health/ready answers 503 when PostgreSQL does not answer, while /health/live still answers 200', async () => {
    const gateway = await ctx.startGateway({ DATABASE_URL: 'postgres://postgres@127.0.0.1:1/wms' });

    const ready = await readyWhen(gateway.url, (answer) => String(answer.body.dependencies.redis) === 'up');
    const live = await request(gateway.url, 'GET', '/health/live');

    expect(ready.status).toBe(503);
    expect(ready.body).toMatchObject({ status: 'unavailable', dependencies: { postgres: 'down', redis: 'up' } });
    expect(live.status).toBe(200);
  });
});
