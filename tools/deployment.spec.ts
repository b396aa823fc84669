import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { configTableMarkdown, configVariables } from '@wms/platform';

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

  it('defines postgres, redis and the four apps; everything else is behind a profile', () => {
    const always = Object.keys(services).filter((name) => !services[name]!.profiles);
    expect(always.sort()).toEqual(['edi-sftp', 'gateway', 'ingest-worker', 'postgres', 'redis', 'webhook-worker']);
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

  it.each(['gateway', 'ingest-worker', 'webhook-worker', 'edi-sftp'])(
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

  it('publishes a port only for the gateway and the SFTP endpoint, so the workers can be scaled', () => {
    expect(services.gateway!.ports).toHaveLength(1);
    expect(services['edi-sftp']!.ports).toEqual(['${EDI_SFTP_PUBLISHED_PORT:-2222}:2222']);
    // Production has no generated host key: compose asks for one.
    expect(services['edi-sftp']!.environment!.EDI_SFTP_HOST_KEYS).toMatch(/^\$\{EDI_SFTP_HOST_KEYS:\?/);
    expect(services['ingest-worker']!.ports).toBeUndefined();
    expect(services['webhook-worker']!.ports).toBeUndefined();
  });

  it('uses only variables the service or its entrypoint knows', () => {
    const known = new Set([...Object.keys(configVariables), 'NODE_MAX_OLD_SPACE_MB']);
    for (const name of ['gateway', 'ingest-worker', 'webhook-worker', 'edi-sftp']) {
      for (const variable of Object.keys(services[name]!.environment!)) expect(known.has(variable)).toBe(true);
    }
  });

  it.each(['gateway', 'ingest-worker', 'webhook-worker', 'edi-sftp'])(
    'starts %s through the image entrypoint, with the heap setting passed on and no V8 flags',
    (name) => {
      expect(services[name]!.command).toEqual([name]);
      expect(services[name]!.environment!.NODE_MAX_OLD_SPACE_MB).toBe('${NODE_MAX_OLD_SPACE_MB:-}');
    },
  );
});

describe('Dockerfile', () => {
  const dockerfile = read('Dockerfile');

  it('builds and runs on one Node release, the one package.json, .nvmrc and the tests declare', () => {
    const pkg = JSON.parse(read('package.json')) as {
      engines: { node: string };
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
      optionalDependencies?: Record<string, string>;
    };
    const images = [...dockerfile.matchAll(/^FROM node:(\S+)-bookworm-slim/gm)].map((match) => match[1]!);
    const [major, minor] = images[0]!.split('.').map(Number);
    const [engineMajor, engineMinor] = /^\^(\d+)\.(\d+)\.\d+$/.exec(pkg.engines.node)!.slice(1).map(Number);

    expect(images).toHaveLength(2);
    expect(images[1]).toBe(images[0]);
    expect(engineMajor).toBe(major);
    expect(minor).toBeGreaterThanOrEqual(engineMinor!);
    expect(read('.nvmrc').trim()).toBe(String(major));
    expect(read('.npmrc')).toMatch(/^engine-strict=true$/m);
    // The runtime is installed, not a dependency: no Node binary package (node, node-bin, node-<os>-<arch>) in the tree.
    const declared = { ...pkg.dependencies, ...pkg.devDependencies, ...pkg.optionalDependencies };
    const nodeBinary = /^node(-bin|-(linux|darwin|win32|win)-[a-z0-9]+)?$/;
    expect(Object.keys(declared).filter((name) => nodeBinary.test(name))).toEqual([]);
    expect(process.versions.node.split('.')[0]).toBe(String(major));
  });

  it('builds with npm ci and tsc, prunes dev dependencies and runs as an unprivileged user', () => {
    expect(dockerfile).toMatch(/^FROM node:\S+ AS build$/m);
    expect(dockerfile).toContain('RUN npm ci');
    expect(dockerfile).toMatch(/npx tsc -b && npm prune --omit=dev/);
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toContain('ENTRYPOINT ["sh", "tools/entrypoint.sh"]');
    expect(dockerfile).toContain('CMD ["gateway"]');
  });

  it('copies every file the apps need at run time', () => {
    for (const app of ['gateway', 'ingest-worker', 'webhook-worker', 'edi-sftp'])
      expect(dockerfile).toContain(`/app/apps/${app}/dist`);
    expect(dockerfile).toContain('/app/apps/admin-portal/dist');
    expect(dockerfile).toContain('COPY tools/entrypoint.sh tools/start.mjs tools/wms.mjs ./tools/');
    expect(existsSync(join(root, '.dockerignore'))).toBe(true);
  });

  it('takes every library of libs/shared without naming one: manifests before npm ci, builds into the image', () => {
    const libraries = readdirSync(join(root, 'libs/shared'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    const lines = dockerfile.split('\n');
    const manifests = lines.findIndex((line) => line === 'COPY --parents libs/shared/*/package.json ./');
    const install = lines.findIndex((line) => line.startsWith('RUN npm ci'));
    const sources = lines.findIndex((line) => line === 'COPY libs/shared libs/shared');

    expect(dockerfile).toMatch(/^# syntax=docker\/dockerfile:1\.(\d{2,})/);
    expect(manifests).toBeGreaterThan(-1);
    expect(manifests).toBeLessThan(install);
    expect(install).toBeLessThan(sources);
    expect(dockerfile).toMatch(/find libs\/shared .*! -name package\.json ! -name dist .*-exec rm -rf/);
    expect(dockerfile).toContain('COPY --from=build /app/libs/shared ./libs/shared');
    expect(libraries.length).toBeGreaterThan(0);
    expect(libraries.filter((library) => dockerfile.includes(`libs/shared/${library}`))).toEqual([]);
  });
});

describe('tools/entrypoint.sh', () => {
  // A stand-in `node` first on PATH prints the arguments the entrypoint starts it with.
  const run = (args: string[], env: Record<string, string>) => {
    const bin = mkdtempSync(join(tmpdir(), 'wms-entrypoint-'));
    try {
      writeFileSync(join(bin, 'node'), '#!/bin/sh\necho "$@"\n');
      chmodSync(join(bin, 'node'), 0o755);
      return execFileSync('sh', [join(root, 'tools/entrypoint.sh'), ...args], {
        env: { PATH: `${bin}:${process.env.PATH}`, ...env },
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      }).trim();
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
  };
  const launcher = join(root, 'tools/start.mjs');
  const tracing = join(root, 'libs/shared/platform/dist/tracing/register.js');

  it('starts the launcher with the old-space limit NODE_MAX_OLD_SPACE_MB names and the tracing bootstrap, passing the app on', () => {
    expect(run(['gateway'], { NODE_MAX_OLD_SPACE_MB: '768' })).toBe(
      `--max-old-space-size=768 --import ${tracing} ${launcher} gateway`,
    );
    expect(run([], { NODE_MAX_OLD_SPACE_MB: '2048' })).toBe(
      `--max-old-space-size=2048 --import ${tracing} ${launcher}`,
    );
  });

  it('refuses a NODE_MAX_OLD_SPACE_MB that is not a whole number of MB above 0', () => {
    for (const value of ['0', 'lots', '512MB', '-1', '1.5']) {
      expect(() => run(['gateway'], { NODE_MAX_OLD_SPACE_MB: value })).toThrow(/NODE_MAX_OLD_SPACE_MB must be/);
    }
  });

  it('without the setting, gives three quarters of the container memory limit, shared by the apps it runs', () => {
    // What this machine's cgroup says: a limit, or none (then V8's own default, no flag).
    const readLimit = () => {
      for (const file of ['/sys/fs/cgroup/memory.max', '/sys/fs/cgroup/memory/memory.limit_in_bytes']) {
        if (existsSync(file)) {
          const value = readFileSync(file, 'utf8').trim();
          return /^\d{1,15}$/.test(value) ? Number(value) : undefined;
        }
      }
      return undefined;
    };
    const limit = readLimit();
    const share = (processes: number) =>
      limit === undefined
        ? ''
        : `--max-old-space-size=${Math.floor((Math.floor(limit / 1048576) * 3) / 4 / processes)} `;

    expect(run(['webhook-worker'], {})).toBe(`${share(1)}--import ${tracing} ${launcher} webhook-worker`);
    expect(run([], {})).toBe(`${share(4)}--import ${tracing} ${launcher}`);
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
