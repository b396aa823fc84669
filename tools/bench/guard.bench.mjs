// The API-key guard's cost: requests/s of one trivial integration GET through the full guard (cached
// verification, IP/origin checks, the Redis sliding-window limit with a high limit, request log) against
// the same handler without the guard, in one run.
//
// Both apps are built in this process from the compiled gateway modules, over the same runtime, with the
// same request-context and error middleware, so the only difference is the guard. (The real gateway has
// no trivial integration GET to call, and a second process per variant would add noise, not accuracy.)
import { createServer } from 'node:http';
import express from 'express';
import { createServices, openRuntime } from '@wms/shared';
import { createApiKeyAccess } from '../../apps/gateway/dist/http/api-key-access.js';
import { errorHandler } from '../../apps/gateway/dist/http/errors.js';
import { requestContext } from '../../apps/gateway/dist/http/request-context.js';
import { load, prepareBenchEnv, ratio } from './lib.mjs';

const DURATION_SECONDS = 5;
const PATH = '/api/v1/integration/v1/ping';

function buildApp(runtime, guard) {
  const app = express();
  app.set('trust proxy', 'loopback');
  app.use(requestContext(runtime.logger));
  const handler = (req, res) => res.json({ status: 'success', data: { pong: true }, requestId: req.requestId });
  if (guard) app.get(PATH, guard, handler);
  else app.get(PATH, handler);
  app.use(errorHandler(runtime.logger));
  return app;
}

async function listen(app) {
  const server = createServer(app);
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${server.address().port}${PATH}` };
}

export default async function guardBench() {
  const bench = await prepareBenchEnv('guard');
  const runtime = openRuntime(bench.config, { name: 'bench-guard', redisRole: 'producer' });
  const services = createServices(runtime.db, bench.config);
  const access = createApiKeyAccess(runtime, services);
  const key = await services.apiKeys.create({ name: 'bench', scopes: ['read'], rateLimitPerMinute: 1_000_000 }, null);
  const guarded = await listen(buildApp(runtime, access.guard));
  const bare = await listen(buildApp(runtime, null));
  try {
    const headers = { 'x-api-key': key.rawKey };
    // Warm-up: caches, JIT, connection pools.
    await load({ url: guarded.url, headers, duration: 1 });
    await load({ url: bare.url, duration: 1 });
    const withGuard = await load({ url: guarded.url, headers, duration: DURATION_SECONDS });
    const withoutGuard = await load({ url: bare.url, duration: DURATION_SECONDS });
    const non2xx = withGuard.non2xx + withoutGuard.non2xx;
    console.log(`with guard:    ${withGuard.requests.average.toFixed(0)} req/s, p99 ${withGuard.latency.p99} ms`);
    console.log(`without guard: ${withoutGuard.requests.average.toFixed(0)} req/s, p99 ${withoutGuard.latency.p99} ms`);
    console.log(`guarded / unguarded throughput: ${ratio(withGuard.requests.average, withoutGuard.requests.average)}`);
    if (non2xx > 0) console.log(`warning: ${non2xx} answers were not 2xx`);
  } finally {
    guarded.server.close();
    bare.server.close();
    await runtime.close();
    await bench.cleanup();
  }
}
