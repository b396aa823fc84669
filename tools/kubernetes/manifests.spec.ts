import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HEALTH_TIMEOUTS, configVariables } from '@wms/platform';
import { APPS, MODELS, configOf, describeEachBuild, madeUpSecrets, portNumber, probesOf, root } from './builds.js';

// No cluster where the tests run: the manifests are built by `kubectl kustomize` and each object validated
// against its API's schema (kubernetes-models); here, what each object must be, against the apps'
// configuration. references.spec.ts checks how the objects refer to each other; probes.spec.ts, the probes and scrapes against the running apps.
const read = (file: string) => readFileSync(join(root, file), 'utf8');
const SECRET_KEYS = ['JWT_SECRET', 'METRICS_TOKEN', 'SECRETS_ENCRYPTION_KEYS', 'DATABASE_URL', 'REDIS_URL'];

describeEachBuild('the Kubernetes manifests', (build) => {
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
    const config = build.get('ConfigMap', 'wms-config').metadata.name;
    // kustomize's content hash in the generated name: a changed setting rolls the Deployments.
    expect(config).toMatch(/^wms-config-[a-z0-9]{10}$/);
    const images = new Set<string>();
    for (const app of APPS) {
      const container = build.container(app);
      images.add(container.image!);
      expect(container.args).toEqual([app]);
      expect(container.command).toBeUndefined();
      expect(container.envFrom).toEqual([{ configMapRef: { name: config } }, { secretRef: { name: 'wms-secrets' } }]);
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
    // A variable set on a container itself is one the service or its entrypoint reads too.
    const containers = [
      ...APPS.map((app) => build.podSpec('Deployment', app)),
      build.podSpec('Job', 'migrate'),
    ].flatMap((pod) => pod.containers);
    const known = (name: string) => name in configVariables || name === 'NODE_MAX_OLD_SPACE_MB';
    expect(containers.flatMap((container) => container.env ?? []).filter((entry) => !known(entry.name))).toEqual([]);
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
      'edi-sftp': config.workerHealthPort,
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
