import { createServer } from 'node:http';
import { createServices, installShutdown, loadConfigOrExit, openRuntime } from '@wms/shared';
import { createApp } from './app.js';

const config = loadConfigOrExit();
const runtime = openRuntime(config, { name: 'gateway', redisRole: 'producer' });
const services = createServices(runtime.db, config);
const app = createApp({ runtime, services });
const server = createServer(app);
server.keepAliveTimeout = 65_000;
let draining = false;
// While draining, every answer asks the client to close its connection, so keep-alive cannot hold us up.
server.on('request', (_req, res) => {
  if (draining) res.setHeader('Connection', 'close');
});

server.listen(config.port, () => runtime.logger.info({ port: config.port }, 'gateway listening'));

installShutdown(runtime.logger, config.shutdownTimeoutMs, async () => {
  // Stop accepting, let in-flight requests finish, and drop connections as soon as they fall idle.
  draining = true;
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  const sweeper = setInterval(() => server.closeIdleConnections(), 100);
  server.closeIdleConnections();
  await closed;
  clearInterval(sweeper);
  await runtime.close();
});
