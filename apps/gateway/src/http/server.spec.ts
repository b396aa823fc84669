import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createGatewayServer } from './server.js';

/** The Express version whose request handling (`setPrototypeOf(req, app.request)`) server.ts was checked against. */
const PINNED_EXPRESS = '5.3.0';

describe('the gateway HTTP server', () => {
  it(`is checked against express ${PINNED_EXPRESS}: an upgrade re-reads how Express sets a request's prototype first`, () => {
    const installed = (createRequire(import.meta.url)('express/package.json') as { version: string }).version;

    expect(installed).toBe(PINNED_EXPRESS);
  });

  it("builds every request and response on Express' own prototypes, and Express answers through them", async () => {
    const app = express();
    const seen: boolean[] = [];
    app.use((req, res, next) => {
      seen.push(Object.getPrototypeOf(req) === app.request, Object.getPrototypeOf(res) === app.response);
      next();
    });
    app.get('/ping', (req, res) => res.status(201).json({ pong: true, ip: typeof req.ip }));
    const server = createGatewayServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;

      const response = await fetch(`http://127.0.0.1:${port}/ping`);

      expect(response.status).toBe(201);
      expect(await response.json()).toEqual({ pong: true, ip: 'string' });
      expect(seen).toEqual([true, true]);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
