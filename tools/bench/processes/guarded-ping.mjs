// One trivial integration GET through the gateway's request context and API-key guard, with or without
// the HTTP metrics middleware in front (WITH_METRICS=1): the cost the metrics add to the hot path, with
// everything else equal. A process of its own, over the bench's database and Redis. Sends { ready, port }.
import express from 'express';
import { loadConfig, openRuntime } from '@wms/platform';
import { createServices } from '../../../apps/gateway/dist/services.js';
import { createApiKeyAccess } from '../../../apps/gateway/dist/http/api-key-access.js';
import { errorHandler } from '../../../apps/gateway/dist/http/errors.js';
import { createGatewayServer } from '../../../apps/gateway/dist/http/server.js';
import { httpMetrics } from '../../../apps/gateway/dist/http/http-metrics.js';
import { requestContext } from '../../../apps/gateway/dist/http/request-context.js';

const PATH = '/api/v1/integration/v1/ping';
const config = loadConfig();
const runtime = openRuntime(config, { name: 'bench-guarded-ping', redisRole: 'producer' });
const access = createApiKeyAccess(runtime, createServices(runtime.db, config));

const app = express();
app.set('trust proxy', 'loopback');
if (process.env.WITH_METRICS === '1') app.use(httpMetrics());
app.use(requestContext(runtime.logger, access.recordAnswer));
app.get(PATH, access.guard, (req, res) =>
  res.json({ status: 'success', data: { pong: true }, requestId: req.requestId }),
);
app.use(errorHandler(runtime.logger));

const server = createGatewayServer(app);
server.listen(0, '127.0.0.1', () => process.send({ ready: true, port: server.address().port, path: PATH }));
process.on('SIGTERM', () => server.close(() => runtime.close().then(() => process.exit(0))));
