// What the Prometheus HTTP metrics cost on the hot path: one trivial integration GET through the request
// context and the full API-key guard, in two processes that differ only by the metrics middleware, in
// alternating rounds through the load generator's own process.
import { openRuntime } from '@wms/platform';
import { createServices } from '../../apps/gateway/dist/services.js';
import { ROUNDS, compareRounds, prepareBenchEnv, startHelper } from './lib.mjs';

const SECONDS = 5;
const CONNECTIONS = 16;

export default async function metricsBench() {
  const bench = await prepareBenchEnv('metrics');
  const runtime = openRuntime(bench.config, { name: 'bench-metrics', redisRole: 'producer' });
  const started = [];
  try {
    const services = createServices(runtime.db, bench.config);
    const key = await services.apiKeys.create({ name: 'bench', scopes: ['read'], rateLimitPerMinute: 1_000_000 }, null);
    const withMetrics = await startHelper('guarded-ping', { ...bench.env, WITH_METRICS: '1' });
    started.push(withMetrics);
    const without = await startHelper('guarded-ping', { ...bench.env, WITH_METRICS: '0' });
    started.push(without);
    const loadgen = await startHelper('loadgen');
    started.push(loadgen);
    const headers = { 'x-api-key': key.rawKey };
    const load = (helper, duration) => ({
      options: {
        url: `http://127.0.0.1:${helper.ready.port}${helper.ready.path}`,
        headers,
        connections: CONNECTIONS,
        duration,
      },
    });
    for (const helper of [withMetrics, without]) await loadgen.call(load(helper, 1)); // warm-up
    const row = await compareRounds(
      'guarded GET, HTTP metrics on / off',
      loadgen,
      { load: load(withMetrics, SECONDS), pid: withMetrics.pid },
      { load: load(without, SECONDS), pid: without.pid },
    );
    console.log(
      `${ROUNDS} rounds of ${SECONDS} s, ${CONNECTIONS} connections; "service" = with metrics, "bare" = without`,
    );
    console.table([row]);
  } finally {
    for (const helper of started.reverse()) await helper.stop();
    await runtime.close();
    await bench.cleanup();
  }
}
