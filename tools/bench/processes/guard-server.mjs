// One side of the guard bench: a trivial integration GET with the API-key guard in front of it (argv
// "guarded") or without it ("bare"), over the same runtime, request-context and error middleware, so the
// guard is the only difference. A process of its own, like the gateway. Sends { ready, port }.
import express from 'express';
import { loadConfig, openRuntime } from '@wms/platform';
import { createServices } from '../../../apps/gateway/dist/services.js';
import { createApiKeyAccess } from '../../../apps/gateway/dist/http/api-key-access.js';
import { errorHandler } from '../../../apps/gateway/dist/http/errors.js';
import { createGatewayServer } from '../../../apps/gateway/dist/http/server.js';
import { requestContext } from '../../../apps/gateway/dist/http/request-context.js';

const PATH = '/api/v1/integration/v1/ping';
const guarded = process.argv[2] === 'guarded';
const config = loadConfig(process.env);
const runtime = openRuntime(config, { name: `bench-guard-${guarded ? 'guarded' : 'bare'}`, redisRole: 'producer' });
const services = createServices(runtime.db, config);

const access = guarded ? createApiKeyAccess(runtime, services) : null;
const app = express();
app.set('trust proxy', 'loopback');
app.use(requestContext(runtime.logger, access?.recordAnswer));
const handler = (req, res) => res.json({ status: 'success', data: { pong: true }, requestId: req.requestId });
if (access) app.get(PATH, access.guard, handler);
else app.get(PATH, handler);
app.use(errorHandler(runtime.logger));

const server = createGatewayServer(app);
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => process.send({ ready: true, port: server.address().port }));
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => void runtime.close().finally(() => process.exit(0)));
});
