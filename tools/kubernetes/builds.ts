import { execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { Namespace, ConfigMap, Secret, Service } from 'kubernetes-models/v1';
import { Deployment } from 'kubernetes-models/apps/v1';
import { Job } from 'kubernetes-models/batch/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { Ingress, NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { ScaledObject } from '@kubernetes-models/keda/keda.sh/v1alpha1';
import { ServiceMonitor } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1';
import type { IContainer, IPodSpec, IProbe } from 'kubernetes-models/v1';
import { loadConfig, type Config } from '@wms/platform';

/** The repository root and the manifests' folder in it. */
export const root = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..', '..');
export const KUBERNETES_DIR = 'deploy/kubernetes';
export const BASE = `${KUBERNETES_DIR}/base`;
export const PRODUCTION = `${KUBERNETES_DIR}/overlays/production`;
/** The overlay's secrets file is never in git: its example (every value empty) stands in for it. */
export const PRODUCTION_SECRETS = `${PRODUCTION}/secrets.env`;

export const APPS = ['gateway', 'ingest-worker', 'webhook-worker', 'edi-sftp'] as const;
export type App = (typeof APPS)[number];

export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
  [field: string]: unknown;
}

/** Why `kubectl kustomize` cannot build here, or null when it can; the specs skip, saying this, without it. */
export const KUSTOMIZE_MISSING: string | null = (() => {
  try {
    execFileSync('kubectl', ['version', '--client'], { stdio: 'ignore' });
    return null;
  } catch {
    return 'no `kubectl` on PATH: the Kubernetes manifests are built by `kubectl kustomize` (kustomize v5)';
  }
})();

/**
 * The objects `kubectl kustomize` builds from `dir` (relative to deploy/kubernetes' parent), on a copy of
 * the folder whose overlay secrets file is its example: git never holds the real one.
 */
export function kustomize(dir: string): KubeObject[] {
  const copy = mkdtempSync(join(tmpdir(), 'wms-kustomize-'));
  try {
    cpSync(join(root, KUBERNETES_DIR), join(copy, KUBERNETES_DIR), { recursive: true });
    copyFileSync(join(root, `${PRODUCTION_SECRETS}.example`), join(copy, PRODUCTION_SECRETS));
    const yaml = execFileSync('kubectl', ['kustomize', join(copy, dir)], { encoding: 'utf8' });
    return parseAllDocuments(yaml).map((document) => document.toJS() as KubeObject);
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

/** An env file's `KEY=VALUE` lines (comments and blank lines skipped), as kustomize's generators read them. */
export function readEnvFile(text: string): Record<string, string> {
  const entries: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const equals = line.indexOf('=');
    if (line.trimStart().startsWith('#') || equals < 1) continue;
    entries[line.slice(0, equals).trim()] = line.slice(equals + 1);
  }
  return entries;
}

/** The model class of every kind the manifests may hold, by `apiVersion/kind`; another kind fails the spec. */
export const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  'v1/Namespace': Namespace,
  'v1/ConfigMap': ConfigMap,
  'v1/Secret': Secret,
  'v1/Service': Service,
  'apps/v1/Deployment': Deployment,
  'batch/v1/Job': Job,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'networking.k8s.io/v1/Ingress': Ingress,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy,
  'keda.sh/v1alpha1/ScaledObject': ScaledObject,
  'monitoring.coreos.com/v1/ServiceMonitor': ServiceMonitor,
};

/** One build of the manifests (the base, or an overlay on it), with the look-ups the checks need. */
export class Build {
  constructor(
    readonly name: string,
    readonly objects: KubeObject[],
  ) {}

  static of(dir: string): Build {
    return new Build(dir, kustomize(dir));
  }

  all(kind: string): KubeObject[] {
    return this.objects.filter((object) => object.kind === kind);
  }

  /** An object by its name; a generated ConfigMap by its generator's name, which kustomize suffixes with a hash. */
  find(kind: string, name: string): KubeObject | undefined {
    const hashed = kind === 'ConfigMap' ? new RegExp(`^${name}-[a-z0-9]{10}$`) : undefined;
    return this.objects.find(
      (object) => object.kind === kind && (object.metadata.name === name || hashed?.test(object.metadata.name)),
    );
  }

  get(kind: string, name: string): KubeObject {
    const object = this.find(kind, name);
    if (!object) throw new Error(`${this.name}: no ${kind} "${name}"`);
    return object;
  }

  /** The pod template's spec of a Deployment or Job. */
  podSpec(kind: 'Deployment' | 'Job', name: string): IPodSpec {
    return (this.get(kind, name).spec as { template: { spec: IPodSpec } }).template.spec;
  }

  podLabels(kind: 'Deployment' | 'Job', name: string): Record<string, string> {
    return (this.get(kind, name).spec as { template: { metadata: { labels: Record<string, string> } } }).template
      .metadata.labels;
  }

  container(app: App): IContainer {
    return this.podSpec('Deployment', app).containers.find((container) => container.name === app)!;
  }

  /** A generated ConfigMap's or Secret's entries, decoded. */
  entries(kind: 'ConfigMap' | 'Secret', name: string): Record<string, string> {
    const data = (this.get(kind, name).data ?? {}) as Record<string, string>;
    if (kind === 'ConfigMap') return { ...data };
    return Object.fromEntries(
      Object.entries(data).map(([key, value]) => [key, Buffer.from(value, 'base64').toString()]),
    );
  }

  /** The Deployments whose pods a selector picks (every label it asks for, equal). */
  deploymentsSelectedBy(selector: Record<string, string>): string[] {
    return this.all('Deployment')
      .map((deployment) => deployment.metadata.name)
      .filter((name) => {
        const labels = this.podLabels('Deployment', name);
        return Object.entries(selector).every(([key, value]) => labels[key] === value);
      });
  }
}

/** The container port a probe or a Service names (by name or number). */
export function portNumber(container: IContainer, port: string | number): number | undefined {
  if (typeof port === 'number')
    return container.ports?.some((entry) => entry.containerPort === port) ? port : undefined;
  return container.ports?.find((entry) => entry.name === port)?.containerPort;
}

export function probesOf(container: IContainer): Array<[string, IProbe | undefined]> {
  return [
    ['startupProbe', container.startupProbe],
    ['livenessProbe', container.livenessProbe],
    ['readinessProbe', container.readinessProbe],
  ];
}

/** The base and the production overlay, built once per test file; none without kustomize. */
export const builds = (): Build[] => (KUSTOMIZE_MISSING ? [] : [Build.of(BASE), Build.of(PRODUCTION)]);

/**
 * `describe`, or, without kustomize, one failing test that says what is missing (the body, which builds, never
 * runs): manifests that were not built are not checked, and a run that did not check them does not pass.
 */
export function describeBuilt(title: string, body: () => void): void {
  if (!KUSTOMIZE_MISSING) return describe(title, body);
  const missing = KUSTOMIZE_MISSING;
  describe(title, () =>
    it('builds the manifests with kubectl kustomize', () => {
      throw new Error(missing);
    }),
  );
}

/** Secrets of the right shape, made up here: what an operator's secrets.env holds. */
export const madeUpSecrets = {
  JWT_SECRET: 'kS8vQ2xN4pL7tR1wY6zB3mC9fH5jD0gA-made-up-for-the-test',
  METRICS_TOKEN: 'a-made-up-metrics-token-0123456789',
  SECRETS_ENCRYPTION_KEYS: `k1:${Buffer.alloc(32, 7).toString('base64')}`,
  SEED_ADMIN_PASSWORD: 'a-made-up-admin-password',
  DATABASE_URL: 'postgres://wms:made-up@postgres.example.internal:5432/wms',
  REDIS_URL: 'redis://:made-up@redis.example.internal:6379',
};

/** The configuration every app of a build starts with: its ConfigMap, then its Secret (envFrom's order). */
export function configOf(
  build: Build,
  secrets: Record<string, string> = build.entries('Secret', 'wms-secrets'),
): Config {
  return loadConfig({ ...build.entries('ConfigMap', 'wms-config'), ...secrets });
}

/** One block per build (the base, the production overlay), skipped as `describeBuilt` is. */
export function describeEachBuild(title: string, body: (build: Build) => void): void {
  describeBuilt(title, () => {
    for (const build of builds()) describe(build.name, () => body(build));
  });
}
