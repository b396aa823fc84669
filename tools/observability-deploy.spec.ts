import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { closeRedis, createRedis, loadConfig, type ProcessMetrics } from '@wms/platform';
import { gatewayProcessMetrics, ingestProcessMetrics, webhookProcessMetrics } from '@wms/setup';
import { createIngestQueue } from '@wms/ingest';
import { createWebhookDeliveryQueue } from '@wms/webhooks';
import {
  deleteRedisKeys,
  parseExposition,
  promqlMetricNames as metricsIn,
  testEnv,
  uniqueRedisPrefix,
} from '@wms/testing';

// No Docker engine runs where the tests run: the observability profile is checked by reading its files,
// and every metric the dashboard queries against what the apps' real registries export.
const root = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');

interface Service {
  profiles?: string[];
  image?: string;
  volumes?: string[];
  secrets?: string[];
  ports?: string[];
}

/** Series Prometheus makes itself for every target. */
const PROMETHEUS_OWN = new Set(['up']);

describe('the observability profile', () => {
  const compose = parse(read('docker-compose.yml'), { merge: true }) as {
    services: Record<string, Service>;
    secrets?: Record<string, { environment?: string }>;
  };
  const prometheus = parse(read('deploy/observability/prometheus.yml')) as {
    scrape_configs: Array<{
      job_name: string;
      authorization?: { type: string; credentials_file: string };
      dns_sd_configs: Array<{ names: string[]; port: number }>;
    }>;
  };
  const dashboard = JSON.parse(read('deploy/observability/grafana/dashboards/wms.json')) as {
    panels: Array<{ type: string; title: string; targets?: Array<{ expr: string }> }>;
  };

  it('adds Prometheus and Grafana to compose behind the observability profile, with their files mounted', () => {
    const profiled = Object.keys(compose.services).filter((name) =>
      compose.services[name]!.profiles?.includes('observability'),
    );
    expect(profiled.sort()).toEqual(['grafana', 'prometheus']);
    expect(compose.services.prometheus!.volumes).toContain(
      './deploy/observability/prometheus.yml:/etc/prometheus/prometheus.yml:ro',
    );
    expect(compose.services.grafana!.volumes).toEqual(
      expect.arrayContaining([
        './deploy/observability/grafana/provisioning:/etc/grafana/provisioning:ro',
        './deploy/observability/grafana/dashboards:/var/lib/grafana/dashboards:ro',
      ]),
    );
    for (const name of ['prometheus', 'grafana'])
      for (const port of compose.services[name]!.ports ?? []) expect(port).toMatch(/^'?127\.0\.0\.1:/);
  });

  it('scrapes the four apps on their ports with METRICS_TOKEN from a compose secret', () => {
    const apps = compose.services;
    expect(compose.secrets?.metrics_token).toEqual({ environment: 'METRICS_TOKEN' });
    expect(apps.prometheus!.secrets).toEqual(['metrics_token']);
    const jobs = Object.fromEntries(prometheus.scrape_configs.map((job) => [job.job_name, job]));
    expect(Object.keys(jobs).sort()).toEqual(['edi-sftp', 'gateway', 'ingest-worker', 'webhook-worker']);
    const env = (name: string) => (apps[name] as { environment?: Record<string, string> }).environment ?? {};
    const expectedPort = {
      gateway: 3000,
      'ingest-worker': Number(env('ingest-worker').WORKER_HEALTH_PORT),
      'webhook-worker': Number(env('webhook-worker').WORKER_HEALTH_PORT),
      'edi-sftp': Number(env('edi-sftp').WORKER_HEALTH_PORT),
    };
    for (const [name, port] of Object.entries(expectedPort)) {
      expect(jobs[name]!.dns_sd_configs).toEqual([{ names: [name], type: 'A', port }]);
      expect(jobs[name]!.authorization).toEqual({ type: 'Bearer', credentials_file: '/run/secrets/metrics_token' });
    }
    expect(env('gateway').PORT).toBe('3000');
  });

  it('provisions the Prometheus data source the dashboard uses, and the dashboard folder', () => {
    const datasources = parse(read('deploy/observability/grafana/provisioning/datasources/prometheus.yml')) as {
      datasources: Array<{ uid: string; url: string }>;
    };
    expect(datasources.datasources).toEqual([
      expect.objectContaining({ uid: 'prometheus', url: 'http://prometheus:9090' }),
    ]);
    const providers = parse(read('deploy/observability/grafana/provisioning/dashboards/wms.yml')) as {
      providers: Array<{ options: { path: string } }>;
    };
    expect(providers.providers[0]!.options.path).toBe('/var/lib/grafana/dashboards');
  });

  /** Every series name the three apps export, read from their real registries (and BullMQ's export). */
  async function exportedNames(): Promise<Set<string>> {
    const config = loadConfig(testEnv('unused', uniqueRedisPrefix('observability-deploy')));
    const redis = createRedis(config, 'worker', 'observability-deploy');
    const ingestQueue = createIngestQueue({ connection: redis, prefix: config.redisKeyPrefix });
    const webhookQueue = createWebhookDeliveryQueue(redis, config.redisKeyPrefix, 3);
    try {
      const registries: ProcessMetrics[] = [
        gatewayProcessMetrics([ingestQueue, webhookQueue]),
        ingestProcessMetrics([ingestQueue]),
        webhookProcessMetrics([webhookQueue], async () => ({
          backlog: 0,
          oldestEventAgeSeconds: 0,
          failingSubscriptions: 0,
        })),
      ];
      const exported = new Set<string>(PROMETHEUS_OWN);
      for (const registry of registries) {
        const text = await registry.render();
        expect(parseExposition(text).families().size).toBeGreaterThan(10);
        for (const [, name, type] of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
          exported.add(name!);
          if (type === 'histogram')
            for (const suffix of ['_bucket', '_count', '_sum']) exported.add(`${name}${suffix}`);
        }
      }
      expect(exported).toContain('bullmq_job_count');
      return exported;
    } finally {
      await Promise.all([ingestQueue.close(), webhookQueue.close()]);
      await deleteRedisKeys(redis, config.redisKeyPrefix);
      await closeRedis(redis);
    }
  }

  it('every metric a dashboard panel queries is one the apps export (read from their real registries)', async () => {
    const exported = await exportedNames();
    const queried = dashboard.panels.flatMap((panel) =>
      (panel.targets ?? []).flatMap((target) => metricsIn(target.expr)),
    );
    const titles = dashboard.panels.filter((panel) => panel.type !== 'row').map((panel) => panel.title.toLowerCase());

    expect(queried.length).toBeGreaterThan(20);
    expect(queried.filter((name) => !exported.has(name))).toEqual([]);
    for (const topic of [
      'request rate',
      'latency',
      'error rate',
      'queue depth',
      'ingest throughput',
      'outbox lag',
      'delivery outcomes',
    ])
      expect(titles.some((title) => title.includes(topic))).toBe(true);
  });

  it('Prometheus loads the alert rules, and every metric they read is one the apps export', async () => {
    const exported = await exportedNames();
    const rules = parse(read('deploy/observability/alerts.yml')) as {
      groups: Array<{ rules: Array<{ alert: string; expr: string }> }>;
    };
    const all = rules.groups.flatMap((group) => group.rules);
    const queried = all.flatMap((rule) => metricsIn(rule.expr));

    expect((prometheus as unknown as { rule_files: string[] }).rule_files).toEqual(['/etc/prometheus/alerts.yml']);
    expect(compose.services.prometheus!.volumes).toContain(
      './deploy/observability/alerts.yml:/etc/prometheus/alerts.yml:ro',
    );
    expect(all.map((rule) => rule.alert)).toEqual(
      expect.arrayContaining([
        'WmsQueueDepthGrowing',
        'WmsOutboxLag',
        'WmsWebhookDeliveriesFailing',
        'WmsGateway5xxRate',
        'WmsProcessDown',
        'WmsReadReplicaLagging',
      ]),
    );
    expect(queried.filter((name) => !exported.has(name))).toEqual([]);
  });

  it('reads the metric names out of PromQL, leaving functions, labels and ranges aside', () => {
    expect(
      metricsIn(
        'histogram_quantile(0.95, sum by (le, route) (rate(http_request_duration_seconds_bucket{route=~"a|b"}[5m])))',
      ),
    ).toEqual(['http_request_duration_seconds_bucket']);
    expect(metricsIn('max(a_metric) / clamp_min(sum(rate(b_total[$__rate_interval])), 1e-9)')).toEqual([
      'a_metric',
      'b_total',
    ]);
  });
});
