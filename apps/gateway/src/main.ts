import { AppLifecycle, claimKeySpaceAtStart, installShutdown, loadConfigOrExit, openRuntime } from '@wms/platform';
import { createServices } from './services.js';
import { createApp } from './app.js';
import { createGatewayServer, ServerDrain } from './http/index.js';

const config = loadConfigOrExit();
const runtime = openRuntime(config, { name: 'gateway', redisRole: 'producer', databaseWork: 'requests' });
const services = createServices(runtime.db, config);
const lifecycle = new AppLifecycle();
const server = createGatewayServer(createApp({ runtime, services, lifecycle }));
server.keepAliveTimeout = 65_000;
const drain = new ServerDrain(server);

// Before the first request: a key space another database holds ends the process (REDIS_KEY_PREFIX); a
// PostgreSQL or Redis away at start leaves the comparison to readiness.
await claimKeySpaceAtStart(runtime.keySpace, runtime.logger);
server.listen(config.port, () => runtime.logger.info({ port: config.port }, 'gateway listening'));

installShutdown(runtime.logger, config.shutdownTimeoutMs, async () => {
  // Every answer closes its connection from now on; bulk calls waiting on their job answer 202 now; idle
  // sockets get a short grace (a request already on the wire is answered), then the server stops accepting
  // and closes each connection once idle; the queue closes before Redis and the database.
  drain.begin();
  await lifecycle.drain();
  await drain.close();
  await lifecycle.close();
  // Also flushes the API-key request log and closes the invalidation subscriber (runtime.onClose hooks).
  await runtime.close();
});
