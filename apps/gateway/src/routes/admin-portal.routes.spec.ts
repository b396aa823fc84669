import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createTestContext, request, type TestContext, type TestGateway } from '@wms/testing';
import { adminPortalRoutes } from './admin-portal.routes.js';

/** The built portal (npm test builds it before Jest) as the gateway serves it. */
describe('admin portal: static files at /admin', () => {
  let ctx: TestContext;
  let gateway: TestGateway;

  beforeAll(async () => {
    ctx = await createTestContext('admin-portal-static');
    gateway = await ctx.startGateway();
  });
  afterAll(() => ctx.close());

  const get = (path: string) => fetch(`${gateway.url}${path}`, { redirect: 'manual' });

  it('/ redirects to /admin/', async () => {
    const response = await get('/');

    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/admin/');
  });

  it('/admin/ answers the page under a strict Content-Security-Policy, its scripts all external', async () => {
    const response = await get('/admin/');
    const html = await response.text();

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.headers.get('cache-control')).toBe('no-cache');
    const csp = response.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      expect(attributes).toMatch(/src="\/admin\/assets\//);
      expect(body!.trim()).toBe('');
    }
    expect(html).not.toMatch(/<style\b/);
  });

  it('a client route (a key detail) answers the same page, so a reload or a shared link works', async () => {
    const page = await (await get('/admin/')).text();
    const response = await get('/admin/api-keys/5f8a1f7e-0000-4000-8000-000000000000');

    expect(response.status).toBe(200);
    expect(await response.text()).toBe(page);
  });

  it('hashed assets are served with a year of immutable caching; a missing asset is a 404, not the page', async () => {
    const html = await (await get('/admin/')).text();
    const script = /src="(\/admin\/assets\/[^"]+\.js)"/.exec(html)![1]!;

    const asset = await get(script);
    const missing = await get('/admin/assets/missing-0000.js');
    const missingFile = await get('/admin/logo.png');

    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
    expect(asset.headers.get('cache-control')).toMatch(/max-age=31536000.*immutable/);
    expect(missing.status).toBe(404);
    expect(missingFile.status).toBe(404);
  });

  it('the page is not served for /admin/queues (the queue console) nor for unknown API paths', async () => {
    const queues = await get('/admin/queues');
    const api = await request(gateway.url, 'GET', '/api/v1/no-such-thing');

    expect(await queues.text()).not.toContain('<div id="root">');
    expect(queues.headers.get('content-security-policy') ?? '').not.toContain("default-src 'none'");
    expect(api.status).toBe(404);
    expect(api.body).toMatchObject({ statusCode: 404, error: 'Not Found' });
  });

  it('without a build, /admin says how to build it', async () => {
    const app = express();
    app.use('/admin', adminPortalRoutes('/nonexistent/portal/dist'));
    const server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const response = await fetch(`http://127.0.0.1:${port}/admin/`);

      expect(response.status).toBe(503);
      expect(await response.text()).toContain('npm run build');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
