import { createServer } from 'node:http';
import { AppLifecycle, createServices, installShutdown, loadConfig, openRuntime } from '@wms/shared';
import { createApp } from './app.js';

const config = loadConfig();
const runtime = openRuntime(config, { name: 'gateway', redisRole: 'producer' });
const services = createServices(runtime.db, config);
const lifecycle = new AppLifecycle();
const server = createServer(createApp({ runtime, services, lifecycle }));
server.keepAliveTimeout = 65_000;

server.listen(config.port, () => runtime.logger.info({ port: config.port }, 'gateway listening'));

installShutdown(runtime.logger, config.shutdownTimeoutMs, async () => {
  // Bulk calls waiting on their job answer 202 now; then stop accepting, let in-flight requests finish,
  // drop idle keep-alive sockets, and close the queue before Redis and the database.
  await lifecycle.drain();
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  await closed;
  await lifecycle.close();
  await runtime.close();
});
