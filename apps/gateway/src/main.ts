import { createServer } from 'node:http';
import { createServices, installShutdown, loadConfig, openRuntime } from '@wms/shared';
import { createApp } from './app.js';

const config = loadConfig();
const runtime = openRuntime(config, { name: 'gateway', redisRole: 'producer' });
const services = createServices(runtime.db, config);
const closeHooks: Array<() => Promise<void>> = [];
const server = createServer(createApp({ runtime, services, onClose: (hook) => closeHooks.push(hook) }));
server.keepAliveTimeout = 65_000;

server.listen(config.port, () => runtime.logger.info({ port: config.port }, 'gateway listening'));

installShutdown(runtime.logger, config.shutdownTimeoutMs, async () => {
  // Stop accepting, let in-flight requests finish, then drop idle keep-alive sockets.
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  await closed;
  await Promise.allSettled(closeHooks.map((hook) => hook()));
  await runtime.close();
});
