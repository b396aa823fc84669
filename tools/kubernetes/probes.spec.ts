import {
  createTestContext,
  parseExposition,
  promqlMetricNames,
  startAppProcess,
  type AppProcess,
  type TestContext,
} from '@wms/testing';
import { APPS, Build, PRODUCTION, describeBuilt, probesOf, type App } from './builds.js';

// The manifests' probes and scrapes against the apps themselves: the four built apps run as processes, and
// every path a probe asks for, and every series a ScaledObject reads, must be one they answer.
const METRICS_TOKEN = 'kubernetes-probes-metrics-token';

/** The selectors of a PromQL expression: metric name, then its label matchers. */
function selectorsIn(
  query: string,
): Array<{ name: string; matchers: Array<{ label: string; op: string; value: string }> }> {
  return [...query.matchAll(/([a-zA-Z_:][\w:]*)\{([^}]*)\}/g)].map(([, name, body]) => ({
    name: name!,
    matchers: [...body!.matchAll(/(\w+)\s*(=~|!~|!=|=)\s*"((?:[^"\\]|\\.)*)"/g)].map(([, label, op, value]) => ({
      label: label!,
      op: op!,
      value: value!,
    })),
  }));
}

describeBuilt('the Kubernetes probes and scrapes, against the running apps', () => {
  const build = Build.of(PRODUCTION);
  let ctx: TestContext;
  const running = {} as Record<App, AppProcess>;

  beforeAll(async () => {
    ctx = await createTestContext('kubernetes-probes', { METRICS_TOKEN });
    await Promise.all(APPS.map(async (app) => (running[app] = await startAppProcess(app, ctx.env))));
  }, 120_000);
  afterAll(async () => {
    await Promise.all(Object.values(running).map((process) => process.kill('SIGTERM')));
    await ctx.close();
  });

  it.each(APPS)('every probe of %s asks for a path the app answers 200 on', async (app) => {
    const probes = probesOf(build.container(app));
    expect(probes.map(([, probe]) => probe?.httpGet?.path)).toEqual(['/health/live', '/health/live', '/health/ready']);
    for (const [, probe] of probes) {
      const response = await fetch(`${running[app].url}${probe!.httpGet!.path}`);
      expect([probe!.httpGet!.path, response.status]).toEqual([probe!.httpGet!.path, 200]);
    }
  });

  it.each(APPS)('%s serves /metrics to the ServiceMonitor’s bearer token only', async (app) => {
    const [endpoint] = (build.get('ServiceMonitor', app).spec as { endpoints: Array<{ path: string }> }).endpoints;

    const without = await fetch(`${running[app].url}${endpoint!.path}`);
    const withToken = await fetch(`${running[app].url}${endpoint!.path}`, {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });

    expect(without.status).toBe(401);
    expect(withToken.status).toBe(200);
  });

  it.each(['ingest-worker', 'webhook-worker'] as const)(
    'the series the %s ScaledObject reads is one the worker exports, with the queue and states it asks for',
    async (app) => {
      const spec = build.get('ScaledObject', app).spec as { triggers: Array<{ metadata: { query: string } }> };
      const query = spec.triggers[0]!.metadata.query;
      const response = await fetch(`${running[app].url}/metrics`, {
        headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      });
      const text = await response.text();
      const scrape = parseExposition(text);
      const series = [...text.matchAll(/^([a-zA-Z_:][\w:]*)\{([^}]*)\}/gm)].map(([, name, labels]) => ({
        name: name!,
        labels: Object.fromEntries(
          [...labels!.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map(([, key, value]) => [key!, value!]),
        ),
      }));

      const selectors = selectorsIn(query);
      expect(selectors.map((selector) => selector.name)).toEqual(promqlMetricNames(query));
      for (const { name, matchers } of selectors) {
        expect(scrape.families()).toContain(name);
        // `namespace` is the label Prometheus adds from the target; the others are the app's own.
        const own = matchers.filter((matcher) => matcher.label !== 'namespace');
        const equal = own.filter((matcher) => matcher.op === '=');
        const matching = series.filter(
          (entry) => entry.name === name && equal.every((matcher) => entry.labels[matcher.label] === matcher.value),
        );
        expect(matching.length).toBeGreaterThan(0);
        for (const matcher of own.filter((candidate) => candidate.op === '=~')) {
          const values = new Set(matching.map((entry) => entry.labels[matcher.label]));
          for (const alternative of matcher.value.split('|'))
            expect([matcher.label, values.has(alternative)]).toEqual([matcher.label, true]);
        }
      }
    },
  );
});
