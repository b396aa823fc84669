import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { ConfigError } from '@wms/platform';
import { promqlMetricNames } from '@wms/testing';
import {
  APPS,
  Build,
  KUBERNETES_DIR,
  PRODUCTION,
  builds as build,
  configOf,
  describeBuilt,
  madeUpSecrets,
  portNumber,
  readEnvFile,
  root,
} from './builds.js';

// How the built objects refer to each other and to the apps: autoscalers to Deployments and to the queue
// metrics, Services, the Ingress, ServiceMonitors and NetworkPolicies to pods and ports, the Secret to git.
const builds = build();
const production = builds[1]!;
const read = (file: string) => readFileSync(join(root, file), 'utf8');

function manifestFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? manifestFiles(join(dir, entry.name))
      : entry.name.endsWith('.yaml')
        ? [join(dir, entry.name)]
        : [],
  );
}

describeBuilt('the Kubernetes scaling', () => {
  it.each(builds.map((build) => [build.name, build] as const))(
    '%s: the gateway scales on CPU, one autoscaler per Deployment',
    (_name, build) => {
      const [hpa] = build.all('HorizontalPodAutoscaler');
      const spec = hpa!.spec as {
        scaleTargetRef: { kind: string; name: string };
        minReplicas: number;
        maxReplicas: number;
        metrics: Array<{ type: string; resource?: { name: string } }>;
      };

      expect(build.all('HorizontalPodAutoscaler')).toHaveLength(1);
      expect(spec.scaleTargetRef).toMatchObject({ kind: 'Deployment', name: 'gateway' });
      expect(spec.metrics).toEqual([
        expect.objectContaining({ type: 'Resource', resource: expect.objectContaining({ name: 'cpu' }) }),
      ]);
      expect(spec.minReplicas).toBeGreaterThanOrEqual(2);
      expect(spec.maxReplicas).toBeGreaterThan(spec.minReplicas);
      // The CPU share is of the requests: a container without them cannot be scaled on it.
      expect(build.container('gateway').resources?.requests?.cpu).toBeDefined();
      const scaled = build
        .all('ScaledObject')
        .map((object) => (object.spec as { scaleTargetRef: { name: string } }).scaleTargetRef.name);
      expect(scaled.sort()).toEqual(['ingest-worker', 'webhook-worker']);
      expect(scaled).not.toContain(spec.scaleTargetRef.name);
      // The autoscalers own the counts: a count in a Deployment would be put back by every apply. The SFTP
      // endpoint's load is sessions, not a queue or CPU: it keeps a fixed count, at least two.
      for (const app of APPS.filter((candidate) => candidate !== 'edi-sftp'))
        expect((build.get('Deployment', app).spec as { replicas?: number }).replicas).toBeUndefined();
      expect((build.get('Deployment', 'edi-sftp').spec as { replicas?: number }).replicas).toBeGreaterThanOrEqual(2);
    },
  );

  it.each(builds.map((build) => [build.name, build] as const))(
    '%s: each worker scales on its own queue, one process’ concurrency of jobs per replica',
    (_name, build) => {
      const config = configOf(build, madeUpSecrets);
      const queueOf = {
        'ingest-worker': ['ingest', config.ingestConcurrency],
        'webhook-worker': ['webhook-delivery', config.webhook.concurrency],
      } as const;
      for (const object of build.all('ScaledObject')) {
        const spec = object.spec as {
          scaleTargetRef: { name: 'ingest-worker' | 'webhook-worker' };
          minReplicaCount: number;
          maxReplicaCount: number;
          fallback: { replicas: number };
          triggers: Array<{
            type: string;
            metricType: string;
            metadata: { query: string; threshold: string; serverAddress: string };
          }>;
        };
        const [queue, concurrency] = queueOf[spec.scaleTargetRef.name];
        const [trigger] = spec.triggers;

        build.get('Deployment', spec.scaleTargetRef.name);
        expect(spec.minReplicaCount).toBeGreaterThanOrEqual(1);
        expect(spec.maxReplicaCount).toBeGreaterThan(spec.minReplicaCount);
        expect(spec.fallback.replicas).toBeGreaterThanOrEqual(spec.minReplicaCount);
        expect(spec.fallback.replicas).toBeLessThanOrEqual(spec.maxReplicaCount);
        expect(spec.triggers).toHaveLength(1);
        expect(trigger).toMatchObject({ type: 'prometheus', metricType: 'AverageValue' });
        expect(promqlMetricNames(trigger!.metadata.query)).toEqual(['bullmq_job_count']);
        expect(trigger!.metadata.query).toContain(`queue="${queue}"`);
        expect(trigger!.metadata.query).toContain(`namespace="${object.metadata.namespace}"`);
        expect(Number(trigger!.metadata.threshold)).toBe(concurrency);
        expect(trigger!.metadata.serverAddress).toMatch(/^https?:\/\//);
      }
    },
  );
});

describeBuilt('the Kubernetes network and monitoring', () => {
  it.each(builds.map((build) => [build.name, build] as const))(
    '%s: the Ingress and the Services reach the apps’ own ports',
    (_name, build) => {
      for (const service of build.all('Service')) {
        const spec = service.spec as {
          selector: Record<string, string>;
          ports: Array<{ name: string; targetPort: string }>;
        };
        const [app] = build.deploymentsSelectedBy(spec.selector) as [(typeof APPS)[number]];
        expect(build.deploymentsSelectedBy(spec.selector)).toEqual([service.metadata.name]);
        for (const port of spec.ports) expect(portNumber(build.container(app), port.targetPort)).toBeDefined();
      }
      const ingresses = build.all('Ingress');
      expect(ingresses).toHaveLength(1);
      const rules = (
        ingresses[0]!.spec as {
          rules: Array<{
            host: string;
            http: { paths: Array<{ backend: { service: { name: string; port: { name: string } } } }> };
          }>;
        }
      ).rules;
      for (const path of rules.flatMap((rule) => rule.http.paths)) {
        const service = build.get('Service', path.backend.service.name).spec as { ports: Array<{ name: string }> };
        expect(path.backend.service.name).toBe('gateway');
        expect(service.ports.map((port) => port.name)).toContain(path.backend.service.port.name);
      }
    },
  );

  it.each(builds.map((build) => [build.name, build] as const))(
    '%s: a ServiceMonitor per app scrapes /metrics on its Service with METRICS_TOKEN from the Secret',
    (_name, build) => {
      const monitors = build.all('ServiceMonitor');
      expect(monitors.map((monitor) => monitor.metadata.name).sort()).toEqual([...APPS].sort());
      for (const monitor of monitors) {
        const spec = monitor.spec as {
          selector: { matchLabels: Record<string, string> };
          endpoints: Array<{
            port: string;
            path: string;
            authorization: { type: string; credentials: { name: string; key: string } };
          }>;
        };
        const services = build
          .all('Service')
          .filter((service) =>
            Object.entries(spec.selector.matchLabels).every(([key, value]) => service.metadata.labels?.[key] === value),
          );
        expect(services.map((service) => service.metadata.name)).toEqual([monitor.metadata.name]);
        const [endpoint] = spec.endpoints;
        expect((services[0]!.spec as { ports: Array<{ name: string }> }).ports.map((port) => port.name)).toContain(
          endpoint!.port,
        );
        expect(endpoint!.path).toBe('/metrics');
        expect(endpoint!.authorization).toEqual({
          type: 'Bearer',
          credentials: { name: 'wms-secrets', key: 'METRICS_TOKEN' },
        });
        expect(build.entries('Secret', endpoint!.authorization.credentials.name)).toHaveProperty('METRICS_TOKEN');
      }
    },
  );

  it.each(builds.map((build) => [build.name, build] as const))(
    '%s: NetworkPolicies deny by default; outside traffic reaches the gateway and the SFTP port only, the workers only scrapes',
    (_name, build) => {
      type Rule = {
        from: Array<{ namespaceSelector?: { matchLabels: Record<string, string> }; ipBlock?: { cidr: string } }>;
        ports: Array<{ port: string }>;
      };
      const policies = build.all('NetworkPolicy').map((policy) => ({
        name: policy.metadata.name,
        spec: policy.spec as {
          podSelector: { matchLabels?: Record<string, string> };
          policyTypes: string[];
          ingress?: Rule[];
        },
      }));
      const denyAll = policies.find((policy) => !policy.spec.podSelector.matchLabels);
      expect(denyAll?.spec).toEqual({ podSelector: {}, policyTypes: ['Ingress'] });
      const namespacesAllowed = (rules: Rule[] = []) =>
        [
          ...new Set(
            rules.flatMap((rule) =>
              rule.from.map((peer) => peer.namespaceSelector?.matchLabels['kubernetes.io/metadata.name']),
            ),
          ),
        ].sort();
      for (const app of APPS) {
        const policy = policies.find(
          (candidate) =>
            candidate.spec.podSelector.matchLabels &&
            build.deploymentsSelectedBy(candidate.spec.podSelector.matchLabels).includes(app),
        );
        const ports = policy!.spec.ingress!.flatMap((rule) =>
          rule.ports.map((port) => portNumber(build.container(app), port.port)),
        );
        expect(build.deploymentsSelectedBy(policy!.spec.podSelector.matchLabels!)).toEqual([app]);
        expect(ports.every((port) => port !== undefined)).toBe(true);
        if (app === 'edi-sftp') {
          // Partners connect from anywhere, to the sftp port only; the health port is Prometheus'.
          const [partners, scrapes] = policy!.spec.ingress!;
          expect(partners!.from.map((peer) => peer.ipBlock?.cidr)).toEqual(['0.0.0.0/0', '::/0']);
          expect(partners!.ports.map((port) => port.port)).toEqual(['sftp']);
          expect(namespacesAllowed([scrapes!])).toEqual(['monitoring']);
          expect(scrapes!.ports.map((port) => port.port)).toEqual(['health']);
          continue;
        }
        expect(namespacesAllowed(policy!.spec.ingress)).toEqual(
          app === 'gateway' ? ['ingress-nginx', 'monitoring'] : ['monitoring'],
        );
      }
    },
  );
});

describeBuilt('the Kubernetes secrets and the production overlay', () => {
  it('commits no secret: the base Secret and the overlay’s example are empty, the overlay’s file is git-ignored', () => {
    const base = builds[0]!.entries('Secret', 'wms-secrets');
    const example = readEnvFile(read(`${PRODUCTION}/secrets.env.example`));

    expect(Object.values(base).filter(Boolean)).toEqual([]);
    expect(Object.values(example).filter(Boolean)).toEqual([]);
    expect(Object.keys(example).sort()).toEqual(Object.keys(base).sort());
    expect(read(`${PRODUCTION}/.gitignore`).split('\n')).toContain('secrets.env');
    const tracked = execFileSync('git', ['ls-files', KUBERNETES_DIR], { cwd: root, encoding: 'utf8' });
    expect(tracked.split('\n').filter((file) => /secrets\.env$/.test(file))).toEqual([]);
  });

  it('applied without real secrets, the apps refuse to start; with them, production accepts the settings', () => {
    for (const build of builds) expect(() => configOf(build)).toThrow(ConfigError);
    expect(() => configOf(production, madeUpSecrets)).not.toThrow();
  });

  it('sets a release image, more replicas and resources, and an ingress host with TLS', () => {
    const image = production.container('gateway').image!;
    expect(image).toMatch(/^[\w.-]+(?::\d+)?\/[\w./-]+:[\w.-]+$/);
    expect(image).not.toMatch(/:latest$/);
    const base = builds[0]!;
    const bounds = (build: Build) => {
      const hpa = build.get('HorizontalPodAutoscaler', 'gateway').spec as { minReplicas: number; maxReplicas: number };
      const scaled = build
        .all('ScaledObject')
        .map((object) => object.spec as { minReplicaCount: number; maxReplicaCount: number });
      return [
        hpa.minReplicas,
        hpa.maxReplicas,
        ...scaled.flatMap((spec) => [spec.minReplicaCount, spec.maxReplicaCount]),
      ];
    };
    bounds(production).forEach((bound, at) => expect(bound).toBeGreaterThan(bounds(base)[at]!));
    for (const app of APPS) expect(production.container(app).resources).not.toEqual(base.container(app).resources);
    const ingress = production.get('Ingress', 'gateway').spec as {
      tls: Array<{ hosts: string[] }>;
      rules: Array<{ host: string }>;
    };
    expect(ingress.tls.flatMap((entry) => entry.hosts)).toEqual(ingress.rules.map((rule) => rule.host));
  });

  it('every YAML file under deploy/kubernetes parses', () => {
    const files = manifestFiles(KUBERNETES_DIR);
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      const documents = parseAllDocuments(read(file));
      expect([file, documents.flatMap((document) => document.errors.map(String))]).toEqual([file, []]);
    }
  });
});
