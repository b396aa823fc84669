import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { endsWithThisProcess } from './child-processes.js';
import { waitFor } from './wait.js';

const run = promisify(execFile);

/**
 * Private Redis servers for tests that kill, freeze, fail over or cluster Redis: each runs Debian's
 * `redis-server` on a free loopback port in a directory of its own, never the shared Redis.
 */
export interface PrivateRedis {
  port: number;
  url: string;
  /** Pauses the process (SIGSTOP): it holds its connections and answers nothing. */
  freeze(): void;
  /** Resumes a frozen process (SIGCONT). */
  thaw(): void;
  /** Kills the process (SIGKILL); its data is gone, as nothing is kept on disk. */
  kill(): Promise<void>;
  /** Starts it again on the same port, empty unless it persists. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** Runs `redis-cli` against a port and returns what it printed. */
export async function redisCli(port: number, ...args: string[]): Promise<string> {
  const { stdout } = await run('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...args]);
  return stdout.trim();
}

async function answers(port: number): Promise<boolean> {
  try {
    return (await redisCli(port, 'PING')) === 'PONG';
  } catch {
    return false;
  }
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
  });
}

/**
 * Starts `redis-server` with `args` (or a config file as the first argument, for sentinels). Resolves when it
 * answers PING.
 */
export async function startRedisServer(
  args: string[] = [],
  options: { port?: number; configFile?: string; sentinel?: boolean } = {},
): Promise<PrivateRedis> {
  const port = options.port ?? (await freePort());
  const dir = mkdtempSync(join(tmpdir(), `wms-redis-${port}-`));
  const argv = [
    ...(options.configFile ? [options.configFile] : []),
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    dir,
    '--save',
    '',
    '--appendonly',
    'no',
    ...(options.sentinel ? ['--sentinel'] : []),
    ...args,
  ];
  let child: ChildProcess;
  const launch = async () => {
    child = endsWithThisProcess(spawn('redis-server', argv, { stdio: 'ignore' }));
    await waitFor(() => answers(port), 10_000);
  };
  await launch();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    freeze: () => void child.kill('SIGSTOP'),
    thaw: () => void child.kill('SIGCONT'),
    async kill() {
      child.kill('SIGKILL');
      await exited(child);
    },
    restart: launch,
    async stop() {
      child.kill('SIGCONT');
      child.kill('SIGKILL');
      await exited(child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface PrivateCluster {
  nodes: PrivateRedis[];
  /** `host:port,…` for REDIS_CLUSTER_NODES. */
  nodeList: string;
  stop(): Promise<void>;
}

/** A Redis Cluster of `masters` masters (no replicas), made with `redis-cli --cluster create`. */
export async function startRedisCluster(masters = 3): Promise<PrivateCluster> {
  const nodes: PrivateRedis[] = [];
  for (let index = 0; index < masters; index += 1) {
    const port = await freePort();
    nodes.push(
      await startRedisServer(
        ['--cluster-enabled', 'yes', '--cluster-config-file', `nodes-${port}.conf`, '--cluster-node-timeout', '2000'],
        { port },
      ),
    );
  }
  const addresses = nodes.map((node) => `127.0.0.1:${node.port}`);
  await run('redis-cli', ['--cluster', 'create', ...addresses, '--cluster-replicas', '0', '--cluster-yes']);
  await waitFor(async () => {
    const states = await Promise.all(nodes.map((node) => redisCli(node.port, 'CLUSTER', 'INFO')));
    return states.every((info) => info.includes('cluster_state:ok'));
  }, 15_000);
  return {
    nodes,
    nodeList: addresses.join(','),
    async stop() {
      await Promise.all(nodes.map((node) => node.stop()));
    },
  };
}

export interface PrivateSentinelSet {
  name: string;
  primary: PrivateRedis;
  replica: PrivateRedis;
  sentinels: PrivateRedis[];
  /** `host:port,…` for REDIS_SENTINELS. */
  sentinelList: string;
  /** The port of the node the sentinels call primary now. */
  primaryPort(): Promise<number>;
  /** `SENTINEL FAILOVER`; resolves once the sentinels name the other node as primary. */
  failover(): Promise<void>;
  stop(): Promise<void>;
}

/** A primary, one replica and three sentinels (quorum 2) watching them. */
export async function startRedisSentinelSet(name = 'wms-primary'): Promise<PrivateSentinelSet> {
  const primary = await startRedisServer();
  const replica = await startRedisServer(['--replicaof', '127.0.0.1', String(primary.port)]);
  await waitFor(async () => (await redisCli(replica.port, 'INFO', 'replication')).includes('master_link_status:up'));
  const sentinels: PrivateRedis[] = [];
  const configDirs: string[] = [];
  for (let index = 0; index < 3; index += 1) {
    const dir = mkdtempSync(join(tmpdir(), 'wms-sentinel-'));
    configDirs.push(dir);
    const configFile = join(dir, 'sentinel.conf');
    // Sentinel rewrites its own config file, so each gets a writable one.
    writeFileSync(
      configFile,
      [
        `sentinel monitor ${name} 127.0.0.1 ${primary.port} 2`,
        `sentinel down-after-milliseconds ${name} 1000`,
        `sentinel failover-timeout ${name} 5000`,
        `sentinel parallel-syncs ${name} 1`,
        '',
      ].join('\n'),
    );
    sentinels.push(await startRedisServer([], { configFile, sentinel: true }));
  }
  // A failover needs every sentinel to know the replica and the other sentinels.
  await waitFor(async () => {
    const views = await Promise.all(
      sentinels.map(async (sentinel) => ({
        replicas: await redisCli(sentinel.port, 'SENTINEL', 'REPLICAS', name),
        peers: await redisCli(sentinel.port, 'SENTINEL', 'SENTINELS', name),
      })),
    );
    return views.every(
      (view) => view.replicas.includes(String(replica.port)) && (view.peers.match(/^name$/gm) ?? []).length === 2,
    );
  }, 20_000);
  const primaryPort = async () => {
    const answer = await redisCli(sentinels[0]!.port, 'SENTINEL', 'GET-MASTER-ADDR-BY-NAME', name);
    return Number(answer.split('\n')[1]);
  };
  return {
    name,
    primary,
    replica,
    sentinels,
    sentinelList: sentinels.map((sentinel) => `127.0.0.1:${sentinel.port}`).join(','),
    primaryPort,
    async failover() {
      const before = await primaryPort();
      await redisCli(sentinels[0]!.port, 'SENTINEL', 'FAILOVER', name);
      await waitFor(async () => (await primaryPort()) !== before, 20_000);
      const after = await primaryPort();
      await waitFor(async () => (await redisCli(after, 'ROLE')).startsWith('master'), 10_000);
    },
    async stop() {
      await Promise.all([...sentinels, replica, primary].map((server) => server.stop()));
      for (const dir of configDirs) rmSync(dir, { recursive: true, force: true });
    },
  };
}
