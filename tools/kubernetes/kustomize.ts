import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';

/**
 * What `kustomize build` makes of deploy/kubernetes, for the tests, which have no kustomize binary: the
 * kustomization fields and patch forms the manifests use, and a refusal for anything else, so that a
 * manifest using more than this is not checked against a wrong build. Left out on purpose: the content
 * hash kustomize appends to a generated ConfigMap's name (it rewrites every reference to it alike, so the
 * plain name is checked in its place).
 */

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

interface Generator {
  name: string;
  behavior?: 'create' | 'merge' | 'replace';
  envs?: string[];
  literals?: string[];
  options?: { disableNameSuffixHash?: boolean };
}

interface Kustomization {
  apiVersion?: string;
  kind?: string;
  namespace?: string;
  resources?: string[];
  configMapGenerator?: Generator[];
  secretGenerator?: Generator[];
  images?: Array<{ name: string; newName?: string; newTag?: string }>;
  replicas?: Array<{ name: string; count: number }>;
  patches?: Array<{ path?: string; patch?: string }>;
}

const FIELDS = new Set([
  'apiVersion',
  'kind',
  'namespace',
  'resources',
  'configMapGenerator',
  'secretGenerator',
  'images',
  'replicas',
  'patches',
]);
const GENERATOR_FIELDS = new Set(['name', 'behavior', 'envs', 'literals', 'options']);
const CLUSTER_SCOPED = new Set(['Namespace', 'ClusterRole', 'ClusterRoleBinding', 'CustomResourceDefinition']);
/** API groups whose objects take strategic merge patches; a custom resource takes a JSON merge patch. */
const BUILT_IN_GROUPS = new Set(['', 'apps', 'batch', 'policy', 'autoscaling', 'networking.k8s.io']);
/** Lists a strategic merge patch merges element by element, by this key. */
const MERGE_KEYS: Record<string, string> = {
  containers: 'name',
  initContainers: 'name',
  env: 'name',
  volumes: 'name',
  volumeMounts: 'mountPath',
};
/** Lists kustomize merges by a key this builder does not implement: a patch touching one is refused. */
const UNSUPPORTED_MERGE_LISTS = new Set(['ports', 'topologySpreadConstraints', 'imagePullSecrets', 'hostAliases']);

export interface BuildOptions {
  /**
   * Files read in place of others, relative to the repository: an overlay's secrets file, which git never
   * holds, stood in for by its example.
   */
  substitutes?: Record<string, string>;
}

export class KustomizeError extends Error {
  override name = 'KustomizeError';
}

type Json = Record<string, unknown>;
const isMap = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Builds the kustomization in `dir` (a path relative to `root`) as `kustomize build` would. */
export function kustomizeBuild(root: string, dir: string, options: BuildOptions = {}): KubeObject[] {
  const kustomization = parse(readFileSync(join(root, dir, 'kustomization.yaml'), 'utf8')) as Kustomization;
  for (const field of Object.keys(kustomization))
    if (!FIELDS.has(field)) throw new KustomizeError(`${dir}/kustomization.yaml: "${field}" is not supported here`);

  let objects: KubeObject[] = [];
  for (const resource of kustomization.resources ?? []) {
    const path = join(dir, resource);
    objects.push(...(resource.endsWith('.yaml') ? readObjects(root, path) : kustomizeBuild(root, path, options)));
  }
  for (const generator of kustomization.configMapGenerator ?? [])
    objects = generate(objects, 'ConfigMap', generator, root, dir, options);
  for (const generator of kustomization.secretGenerator ?? [])
    objects = generate(objects, 'Secret', generator, root, dir, options);
  for (const entry of kustomization.patches ?? []) {
    if (Object.keys(entry).some((key) => key !== 'path' && key !== 'patch'))
      throw new KustomizeError(`${dir}: a patch with a target is not supported here; name the object in the patch`);
    const text = entry.patch ?? readFileSync(join(root, dir, entry.path ?? ''), 'utf8');
    objects = applyPatch(objects, parse(text) as KubeObject, `${dir}/${entry.path ?? 'inline patch'}`);
  }
  if (kustomization.namespace)
    for (const object of objects)
      if (!CLUSTER_SCOPED.has(object.kind)) object.metadata.namespace = kustomization.namespace;
  for (const image of kustomization.images ?? []) setImage(objects, image);
  for (const { name, count } of kustomization.replicas ?? []) {
    const target = objects.find((object) => object.kind === 'Deployment' && object.metadata.name === name);
    if (!target) throw new KustomizeError(`${dir}: replicas names no Deployment "${name}"`);
    (target.spec as Json).replicas = count;
  }
  return objects;
}

/** Every document of one manifest file. */
export function readObjects(root: string, path: string): KubeObject[] {
  const documents = parseAllDocuments(readFileSync(join(root, path), 'utf8'));
  return documents.map((document) => {
    if (document.errors.length) throw new KustomizeError(`${path}: ${document.errors[0]!.message}`);
    const object = document.toJS() as KubeObject;
    if (!object?.apiVersion || !object.kind || !object.metadata?.name)
      throw new KustomizeError(`${path}: a document without apiVersion, kind or metadata.name`);
    return object;
  });
}

/** KEY=VALUE lines as kustomize reads an env file: blank lines and # comments skipped, the value taken as written. */
export function readEnvFile(text: string, file: string): Record<string, string> {
  const entries: Record<string, string> = {};
  for (const line of text.split('\n')) {
    if (!line.trim() || line.trimStart().startsWith('#')) continue;
    const equals = line.indexOf('=');
    // kustomize would take a bare KEY from the environment of whoever builds: never wanted here.
    if (equals < 1) throw new KustomizeError(`${file}: "${line}" is not KEY=VALUE`);
    entries[line.slice(0, equals).trim()] = line.slice(equals + 1);
  }
  return entries;
}

function generate(
  objects: KubeObject[],
  kind: 'ConfigMap' | 'Secret',
  generator: Generator,
  root: string,
  dir: string,
  options: BuildOptions,
): KubeObject[] {
  for (const field of Object.keys(generator))
    if (!GENERATOR_FIELDS.has(field))
      throw new KustomizeError(`${dir}: generator field "${field}" is not supported here`);
  const values: Record<string, string> = {};
  for (const envs of generator.envs ?? []) {
    const file = join(dir, envs);
    Object.assign(values, readEnvFile(readFileSync(join(root, options.substitutes?.[file] ?? file), 'utf8'), file));
  }
  for (const literal of generator.literals ?? []) Object.assign(values, readEnvFile(literal, `${dir} literal`));
  const data =
    kind === 'Secret'
      ? Object.fromEntries(Object.entries(values).map(([key, value]) => [key, Buffer.from(value).toString('base64')]))
      : values;
  const index = objects.findIndex((object) => object.kind === kind && object.metadata.name === generator.name);
  const behavior = generator.behavior ?? 'create';
  if (behavior === 'create') {
    if (index >= 0) throw new KustomizeError(`${dir}: ${kind} "${generator.name}" exists already; merge or replace it`);
    const made: KubeObject = { apiVersion: 'v1', kind, metadata: { name: generator.name }, data };
    if (kind === 'Secret') made.type = 'Opaque';
    return [...objects, made];
  }
  if (index < 0) throw new KustomizeError(`${dir}: no ${kind} "${generator.name}" to ${behavior}`);
  const existing = objects[index]!;
  const merged = { ...existing, data: behavior === 'merge' ? { ...(existing.data as Json), ...data } : data };
  return objects.map((object, at) => (at === index ? merged : object));
}

function groupOf(apiVersion: string): string {
  return apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
}

function applyPatch(objects: KubeObject[], patch: KubeObject, source: string): KubeObject[] {
  const index = objects.findIndex(
    (object) =>
      object.kind === patch.kind &&
      object.metadata.name === patch.metadata?.name &&
      groupOf(object.apiVersion) === groupOf(patch.apiVersion),
  );
  if (index < 0) throw new KustomizeError(`${source}: no ${patch.kind} "${patch.metadata?.name}" to patch`);
  if ((patch as Json).$patch === 'delete') return objects.filter((_object, at) => at !== index);
  const strategic = BUILT_IN_GROUPS.has(groupOf(patch.apiVersion));
  const patched = mergeValue(objects[index], patch, strategic, source, '') as KubeObject;
  return objects.map((object, at) => (at === index ? patched : object));
}

function mergeValue(base: unknown, patch: unknown, strategic: boolean, source: string, path: string): unknown {
  if (!isMap(patch)) return patch;
  if (!isMap(base)) return mergeValue({}, patch, strategic, source, path);
  const result: Json = { ...base };
  for (const [key, value] of Object.entries(patch)) {
    if (key.startsWith('$')) throw new KustomizeError(`${source}: directive ${key} at ${path} is not supported here`);
    const at = `${path}.${key}`;
    if (value === null) delete result[key];
    else if (Array.isArray(value) && strategic && key in MERGE_KEYS)
      result[key] = mergeList(base[key], value, MERGE_KEYS[key]!, source, at);
    else if (Array.isArray(value) && strategic && UNSUPPORTED_MERGE_LISTS.has(key))
      throw new KustomizeError(`${source}: patching the list ${at} is not supported here`);
    else result[key] = mergeValue(base[key], value, strategic, source, at);
  }
  return result;
}

function mergeList(base: unknown, patch: unknown[], key: string, source: string, path: string): unknown[] {
  const result = Array.isArray(base) ? [...(base as unknown[])] : [];
  for (const element of patch) {
    if (!isMap(element) || element[key] === undefined)
      throw new KustomizeError(`${source}: an element of ${path} without its merge key "${key}"`);
    const index = result.findIndex((existing) => isMap(existing) && existing[key] === element[key]);
    if (index < 0) result.push(element);
    else result[index] = mergeValue(result[index], element, true, source, `${path}[${key}=${String(element[key])}]`);
  }
  return result;
}

function setImage(objects: KubeObject[], image: { name: string; newName?: string; newTag?: string }): void {
  for (const object of objects) {
    const pod = ((object.spec as Json | undefined)?.template as Json | undefined)?.spec as Json | undefined;
    for (const container of [...((pod?.containers as Json[]) ?? []), ...((pod?.initContainers as Json[]) ?? [])]) {
      const reference = String(container.image);
      const [name, tag] = /^([^:@]+(?::\d+\/[^:@]+)?)(?::([^@]+))?$/.exec(reference)?.slice(1) ?? [reference];
      if (name !== image.name) continue;
      const newTag = image.newTag ?? tag;
      container.image = `${image.newName ?? name}${newTag ? `:${newTag}` : ''}`;
    }
  }
}
