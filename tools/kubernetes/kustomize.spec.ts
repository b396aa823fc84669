import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { KustomizeError, kustomizeBuild, readEnvFile, type KubeObject } from './kustomize.js';

// The stand-in for `kustomize build` the manifests' spec relies on: what it does with the forms it knows,
// and that it refuses the others rather than build something kustomize would not.
describe('the kustomize stand-in', () => {
  let root: string;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'wms-kustomize-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const write = (files: Record<string, string>) => {
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, file)), { recursive: true });
      writeFileSync(join(root, file), text);
    }
  };
  const deployment = `apiVersion: apps/v1
kind: Deployment
metadata: {name: app}
spec:
  template:
    spec:
      containers:
        - {name: app, image: 'app:1', args: [a, b], resources: {requests: {cpu: 100m, memory: 64Mi}}}
        - {name: sidecar, image: 'other:2'}
`;
  const base = {
    'base/kustomization.yaml':
      'namespace: ns\nresources: [app.yaml]\nconfigMapGenerator:\n  - {name: config, envs: [config.env]}\n',
    'base/app.yaml': deployment,
    'base/config.env': '# a comment\nA=1\nB=two=2\n\n',
  };
  const container = (objects: KubeObject[], name: string) =>
    (
      objects[0]!.spec as { template: { spec: { containers: Array<Record<string, unknown>> } } }
    ).template.spec.containers.find((entry) => entry.name === name)!;

  it('merges a patch into a container by its name, replacing lists that have no merge key', () => {
    write({
      ...base,
      'overlay/kustomization.yaml': 'resources: [../base]\npatches:\n  - path: patch.yaml\n',
      'overlay/patch.yaml':
        'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: app}\nspec:\n  template:\n    spec:\n      containers:\n        - {name: app, args: [c], resources: {requests: {cpu: 200m}}}\n',
    });

    const objects = kustomizeBuild(root, 'overlay');

    expect(container(objects, 'app')).toEqual({
      name: 'app',
      image: 'app:1',
      args: ['c'],
      resources: { requests: { cpu: '200m', memory: '64Mi' } },
    });
    expect(container(objects, 'sidecar')).toEqual({ name: 'sidecar', image: 'other:2' });
    expect(objects[0]!.metadata.namespace).toBe('ns');
  });

  it('generates, merges and replaces ConfigMaps and Secrets from env files; sets image names and tags', () => {
    write({
      ...base,
      'overlay/kustomization.yaml': [
        'resources: [../base]',
        'configMapGenerator:\n  - {name: config, behavior: merge, literals: [B=3]}',
        'secretGenerator:\n  - {name: secret, envs: [secret.env]}',
        'images:\n  - {name: app, newName: registry.test/app, newTag: "2.0"}',
      ].join('\n'),
      'overlay/secret.env': 'TOKEN=s3cret\n',
    });

    const objects = kustomizeBuild(root, 'overlay');

    expect(objects.find((object) => object.kind === 'ConfigMap')!.data).toEqual({ A: '1', B: '3' });
    expect(objects.find((object) => object.kind === 'Secret')!.data).toEqual({
      TOKEN: Buffer.from('s3cret').toString('base64'),
    });
    expect(container(objects, 'app').image).toBe('registry.test/app:2.0');
    expect(container(objects, 'sidecar').image).toBe('other:2');
  });

  it('refuses what it does not implement: other fields, targeted patches, merge lists it cannot key', () => {
    write({ ...base, 'a/kustomization.yaml': 'resources: [../base]\ncommonLabels: {a: b}\n' });
    write({
      'b/kustomization.yaml': 'resources: [../base]\npatches:\n  - {path: p.yaml, target: {kind: Deployment}}\n',
    });
    write({
      'c/kustomization.yaml': 'resources: [../base]\npatches:\n  - path: p.yaml\n',
      'c/p.yaml':
        'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: app}\nspec:\n  template:\n    spec:\n      topologySpreadConstraints: []\n',
    });

    expect(() => kustomizeBuild(root, 'a')).toThrow(
      new KustomizeError('a/kustomization.yaml: "commonLabels" is not supported here'),
    );
    expect(() => kustomizeBuild(root, 'b')).toThrow(/a patch with a target is not supported/);
    expect(() => kustomizeBuild(root, 'c')).toThrow(/topologySpreadConstraints is not supported/);
  });

  it('reads env files as kustomize does, refusing a bare name it would take from the environment', () => {
    expect(readEnvFile('A=1\n# note\nB= spaced \nC=\n', 'x.env')).toEqual({ A: '1', B: ' spaced ', C: '' });
    expect(() => readEnvFile('HOME\n', 'x.env')).toThrow(/not KEY=VALUE/);
  });
});
