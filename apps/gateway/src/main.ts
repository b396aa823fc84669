import { AppLifecycle, installShutdown, loadConfigOrExit, openRuntime } from '@wms/platform';
import { createServices } from './services.js';
import { createApp } from './app.js';
import { createGatewayServer } from './http/server.js';

const config = loadConfigOrExit();
const runtime = openRuntime(config, { name: 'gateway', redisRole: 'producer' });
const services = createServices(runtime.db, config);
const lifecycle = new AppLifecycle();
const server = createGatewayServer(createApp({ runtime, services, lifecycle }));
server.keepAliveTimeout = 65_000;
let draining = false;
// While draining, every answer asks the client to close its connection, so keep-alive cannot hold us up.
server.on('request', (_req, res) => {
  if (draining) res.setHeader('Connection', 'close');
});

server.listen(config.port, () => runtime.logger.info({ port: config.port }, 'gateway listening'));

installShutdown(runtime.logger, config.shutdownTimeoutMs, async () => {
  // Bulk calls waiting on their job answer 202 now; then stop accepting, let in-flight requests finish,
  // drop connections as soon as they fall idle, and close the queue before Redis and the database.
  draining = true;
  await lifecycle.drain();
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  const sweeper = setInterval(() => server.closeIdleConnections(), 100);
  server.closeIdleConnections();
  await closed;
  clearInterval(sweeper);
  await lifecycle.close();
  // Also flushes the API-key request log and closes the invalidation subscriber (runtime.onClose hooks).
  await runtime.close();
});
