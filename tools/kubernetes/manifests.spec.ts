import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { ConfigError, HEALTH_TIMEOUTS, configVariables, loadConfig, type Config } from '@wms/platform';
import { promqlMetricNames } from '@wms/testing';
import { APPS, BASE, Build, KUBERNETES_DIR, MODELS, PRODUCTION, portNumber, probesOf, root } from './builds.js';
import { readEnvFile } from './kustomize.js';

// No kustomize binary and no cluster where the tests run: the manifests are built by the stand-in in
// kustomize.ts, each object validated against its API's schema (kubernetes-models), and every reference
// between objects, and between the objects and the apps' configuration, checked here.
const builds = [Build.of(BASE), Build.of(PRODUCTION)];
const production = builds[1]!;
const read = (file: string) => readFileSync(join(root, file), 'utf8');
const SECRET_KEYS = ['JWT_SECRET', 'METRICS_TOKEN', 'SECRETS_ENCRYPTION_KEYS', 'DATABASE_URL', 'REDIS_URL'];

/** Secrets of the right shape, made up here: what an operator's secrets.env holds. */
const madeUpSecrets = {
  JWT_SECRET: 'kS8vQ2xN4pL7tR1wY6zB3mC9fH5jD0gA-made-up-for-the-test',
  METRICS_TOKEN: 'a-made-up-metrics-token-0123456789',
  SECRETS_ENCRYPTION_KEYS: `k1:${Buffer.alloc(32, 7).toString('base64')}`,
  SEED_ADMIN_PASSWORD: 'a-made-up-admin-password',
  DATABASE_URL: 'postgres://wms:made-up@postgres.example.internal:5432/wms',
  REDIS_URL: 'redis://:made-up@redis.example.internal:6379',
};

/** The environment every app of a build starts with: its ConfigMap, then its Secret (envFrom order). */
function configOf(build: Build, secrets: Record<string, string> = build.entries('Secret', 'wms-secrets')): Config {
  return loadConfig({ ...build.entries('ConfigMap', 'wms-config'), ...secrets });
}

function manifestFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? manifestFiles(join(dir, entry.name))
      : entry.name.endsWith('.yaml')
        ? [join(dir, entry.name)]
        : [],
  );
}

describe.each(builds.map((build) => [build.name, build] as const))('the Kubernetes manifests: %s', (_name, build) => {
  it('validates every object against the schema of its kind (Kubernetes, KEDA, Prometheus Operator)', () => {
    const kinds = build.objects.map((object) => `${object.apiVersion}/${object.kind}`);

    expect(kinds.filter((kind) => !MODELS[kind])).toEqual([]);
    const invalid = build.objects.flatMap((object) => {
      const Model = MODELS[`${object.apiVersion}/${object.kind}`]!;
      try {
        new Model(object as never).validate();
        return [];
      } catch (error) {
        return [`${object.kind}/${object.metadata.name}: ${(error as Error).message}`];
      }
    });
    expect(invalid).toEqual([]);
    const ids = build.objects.map((object) => `${object.kind}/${object.metadata.name}`);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('puts everything in the one namespace, which enforces the restricted pod security standard', () => {
    const [namespace] = build.all('Namespace');

    expect(build.all('Namespace')).toHaveLength(1);
    expect(namespace!.metadata.labels?.['pod-security.kubernetes.io/enforce']).toBe('restricted');
    for (const object of build.objects.filter((object) => object.kind !== 'Namespace'))
      expect(object.metadata.namespace).toBe(namespace!.metadata.name);
  });

  it('has a Deployment per app, each running its app from the one image with the settings and secrets', () => {
    expect(
      build
        .all('Deployment')
        .map((deployment) => deployment.metadata.name)
        .sort(),
    ).toEqual([...APPS].sort());
    const images = new Set<string>();
    for (const app of APPS) {
      const container = build.container(app);
      images.add(container.image!);
      expect(container.args).toEqual([app]);
      expect(container.command).toBeUndefined();
      expect(container.envFrom).toEqual([
        { configMapRef: { name: 'wms-config' } },
        { secretRef: { name: 'wms-secrets' } },
      ]);
    }
    const migrate = build.podSpec('Job', 'migrate').containers[0]!;
    images.add(migrate.image!);
    expect(migrate.args).toEqual(['migrate']);
    expect(migrate.envFrom).toEqual(build.container('gateway').envFrom);
    expect(images.size).toBe(1);
    build.get('ConfigMap', 'wms-config');
    build.get('Secret', 'wms-secrets');
  });

  it('keys its ConfigMap and Secret by the config schema, each setting in one of them, secrets only in the Secret', () => {
    const settings = Object.keys(build.entries('ConfigMap', 'wms-config'));
    const secrets = Object.keys(build.entries('Secret', 'wms-secrets'));

    expect([...settings, ...secrets].filter((key) => !(key in configVariables))).toEqual([]);
    expect(settings.filter((key) => secrets.includes(key))).toEqual([]);
    expect(secrets).toEqual(expect.arrayContaining([...SECRET_KEYS, 'SEED_ADMIN_PASSWORD']));
    expect(settings.filter((key) => /SECRET|TOKEN|PASSWORD|_URL$|KEYS$/.test(key))).toEqual([]);
  });

  it('leaves migrating to the Job: the apps start with MIGRATE_ON_START=false, in production mode', () => {
    const config = configOf(build, madeUpSecrets);

    expect(config.migrateOnStart).toBe(false);
    expect(config.nodeEnv).toBe('production');
    const job = build.get('Job', 'migrate').spec as {
      backoffLimit: number;
      template: { spec: { restartPolicy: string } };
    };
    expect(job.template.spec.restartPolicy).toBe('Never');
    expect(job.backoffLimit).toBeGreaterThan(0);
  });

  it('probes each app on its own port: the gateway on PORT, a worker on WORKER_HEALTH_PORT', () => {
    const config = configOf(build, madeUpSecrets);
    const ownPort = {
      gateway: config.port,
      'ingest-worker': config.workerHealthPort,
      'webhook-worker': config.workerHealthPort,
    };
    for (const app of APPS) {
      const container = build.container(app);
      for (const [kind, probe] of probesOf(container)) {
        expect([app, kind, probe?.httpGet && portNumber(container, probe.httpGet.port)]).toEqual([
          app,
          kind,
          ownPort[app],
        ]);
      }
      // The readiness check waits up to HEALTH_TIMEOUTS for PostgreSQL; the probe must wait longer.
      expect(container.readinessProbe!.timeoutSeconds! * 1000).toBeGreaterThan(HEALTH_TIMEOUTS.postgresMs);
    }
    expect(ownPort['ingest-worker']).toBeGreaterThan(0);
  });

  it('gives every app requests and limits, and a grace period longer than its pause before SIGTERM and its drain', () => {
    const config = configOf(build, madeUpSecrets);
    const cpu = (value: string | number) =>
      String(value).endsWith('m') ? parseFloat(String(value)) / 1000 : Number(value);
    const mebibytes = (value: string | number) => parseFloat(String(value)) * (String(value).endsWith('Gi') ? 1024 : 1);
    for (const app of APPS) {
      const { requests, limits } = build.container(app).resources!;
      expect(cpu(requests!.cpu!)).toBeLessThanOrEqual(cpu(limits!.cpu!));
      expect(mebibytes(requests!.memory!)).toBeLessThanOrEqual(mebibytes(limits!.memory!));
      const preStop = build.container(app).lifecycle?.preStop?.exec?.command;
      const pauseSeconds = preStop ? Number(preStop[1]) : 0;
      expect(preStop === undefined || preStop[0] === 'sleep').toBe(true);
      expect(build.podSpec('Deployment', app).terminationGracePeriodSeconds!).toBeGreaterThan(
        pauseSeconds + config.shutdownTimeoutMs / 1000,
      );
    }
  });

  it('runs every pod as the image user, non-root, read-only, without privileges or capabilities', () => {
    const pods = [...APPS.map((app) => build.podSpec('Deployment', app)), build.podSpec('Job', 'migrate')];
    for (const pod of pods) {
      expect(pod.securityContext).toMatchObject({
        runAsNonRoot: true,
        runAsUser: 1000,
        seccompProfile: { type: 'RuntimeDefault' },
      });
      expect(pod.automountServiceAccountToken).toBe(false);
      for (const container of pod.containers) {
        expect(container.securityContext).toEqual({
          allowPrivilegeEscalation: false,
          readOnlyRootFilesystem: true,
          capabilities: { drop: ['ALL'] },
        });
        const tmp = container.volumeMounts?.find((mount) => mount.mountPath === '/tmp');
        expect(pod.volumes?.find((volume) => volume.name === tmp?.name)?.emptyDir).toBeDefined();
      }
    }
    // The image's user: `node`, uid 1000 in the official Node images the Dockerfile builds on.
    expect(read('Dockerfile')).toMatch(/^USER node$/m);
    expect(read('Dockerfile')).toMatch(/^FROM node:\S+-bookworm-slim$/m);
  });

  it('spreads each app over zones and nodes, and budgets its disruptions', () => {
    for (const app of APPS) {
      const labels = build.podLabels('Deployment', app);
      const spread = build.podSpec('Deployment', app).topologySpreadConstraints!;
      expect(spread.map((constraint) => constraint.topologyKey).sort()).toEqual([
        'kubernetes.io/hostname',
        'topology.kubernetes.io/zone',
      ]);
      for (const constraint of spread)
        expect(build.deploymentsSelectedBy(constraint.labelSelector!.matchLabels!)).toEqual([app]);
      const budget = build.get('PodDisruptionBudget', app).spec as {
        selector: { matchLabels: Record<string, string> };
      };
      expect(build.deploymentsSelectedBy(budget.selector.matchLabels)).toEqual([app]);
      expect(labels['app.kubernetes.io/name']).toBe(app);
    }
  });
});

describe('the Kubernetes scaling', () => {
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
      // The autoscalers own the counts: a count in a Deployment would be put back by every apply.
      for (const app of APPS)
        expect((build.get('Deployment', app).spec as { replicas?: number }).replicas).toBeUndefined();
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

describe('the Kubernetes network and monitoring', () => {
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
    '%s: NetworkPolicies deny by default; outside traffic reaches the gateway only, the workers only scrapes',
    (_name, build) => {
      type Rule = {
        from: Array<{ namespaceSelector?: { matchLabels: Record<string, string> } }>;
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
        expect(namespacesAllowed(policy!.spec.ingress)).toEqual(
          app === 'gateway' ? ['ingress-nginx', 'monitoring'] : ['monitoring'],
        );
      }
    },
  );
});

describe('the Kubernetes secrets and the production overlay', () => {
  it('commits no secret: the base Secret and the overlay’s example are empty, the overlay’s file is git-ignored', () => {
    const base = builds[0]!.entries('Secret', 'wms-secrets');
    const example = readEnvFile(read(`${PRODUCTION}/secrets.env.example`), 'secrets.env.example');

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
      expect([relative(root, join(root, file)), documents.flatMap((document) => document.errors.map(String))]).toEqual([
        file,
        [],
      ]);
    }
  });
});
