import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from './redis-servers.js';

const run = promisify(execFile);

/**
 * Private PostgreSQL servers for the read-replica tests: a primary and a hot standby streaming from it,
 * made from the installed binaries on free loopback ports in a temporary directory, never the shared
 * server. PostgreSQL refuses to run as root, so under root its commands run as the `postgres` user.
 */
export interface PrivatePostgres {
  port: number;
  /** The URL of `database` on this server. */
  url(database: string): string;
  /** Runs one statement on its `postgres` database and answers the rows. */
  query<Row = Record<string, unknown>>(text: string): Promise<Row[]>;
  /** Stops it (fast shutdown: sessions are ended) and resolves once it is down. */
  stop(): Promise<void>;
  /** Starts it again after stop(), with its data. */
  start(): Promise<void>;
}

export interface PrivateReplication {
  primary: PrivatePostgres;
  standby: PrivatePostgres;
  /** The same database URL on the standby (a standby has every database of its primary). */
  standbyUrl(primaryUrl: string): string;
  /** Stops both servers and removes their files. */
  stop(): Promise<void>;
}

/** The newest installed PostgreSQL's bin directory (PG_BIN_DIR to choose another). */
function binDir(): string {
  if (process.env.PG_BIN_DIR) return process.env.PG_BIN_DIR;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((version) => existsSync(join(root, version, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length === 0) throw new Error('no PostgreSQL binaries under /usr/lib/postgresql: set PG_BIN_DIR');
  return join(root, versions[0]!, 'bin');
}

/** Runs a PostgreSQL program, as `postgres` when this process is root. */
async function pgRun(program: string, args: string[]): Promise<void> {
  const path = join(binDir(), program);
  const asRoot = process.getuid?.() === 0;
  try {
    await (asRoot ? run('runuser', ['-u', 'postgres', '--', path, ...args]) : run(path, args));
  } catch (error) {
    const failure = error as { stderr?: string; message: string };
    throw new Error(`${program} failed: ${failure.stderr || failure.message}`);
  }
}

async function postgresOwner(): Promise<{ uid: number; gid: number } | null> {
  if (process.getuid?.() !== 0) return null;
  const [{ stdout: uid }, { stdout: gid }] = await Promise.all([
    run('id', ['-u', 'postgres']),
    run('id', ['-g', 'postgres']),
  ]);
  return { uid: Number(uid.trim()), gid: Number(gid.trim()) };
}

/** The settings both servers start with: loopback only, a socket in their own directory, replication on. */
function serverOptions(port: number, dir: string): string {
  return [
    `-p ${port}`,
    '-c listen_addresses=127.0.0.1',
    `-c unix_socket_directories=${dir}`,
    '-c wal_level=replica',
    '-c hot_standby=on',
    '-c max_wal_senders=4',
    '-c max_connections=60',
    '-c shared_buffers=32MB',
    // Test data: nothing needs to survive a crash of the machine.
    '-c fsync=off',
    '-c full_page_writes=off',
  ].join(' ');
}

function server(port: number, dataDir: string, dir: string): PrivatePostgres {
  const url = (database: string) => `postgres://postgres@127.0.0.1:${port}/${database}`;
  const start = () =>
    pgRun('pg_ctl', ['-D', dataDir, '-o', serverOptions(port, dir), '-l', `${dataDir}.log`, '-w', 'start']);
  return {
    port,
    url,
    async query<Row>(text: string) {
      const client = new pg.Client({ connectionString: url('postgres') });
      await client.connect();
      try {
        return (await client.query(text)).rows as Row[];
      } finally {
        await client.end();
      }
    },
    stop: () => pgRun('pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', 'stop']),
    start,
  };
}

/**
 * Starts a primary (`initdb`, trust authentication on loopback) and a hot standby made from it with
 * `pg_basebackup -R`, streaming. Resolves once the standby answers reads. Call stop() in afterAll.
 */
export async function startPostgresReplication(): Promise<PrivateReplication> {
  const dir = mkdtempSync(join(tmpdir(), 'wms-pg-'));
  const owner = await postgresOwner();
  if (owner) chownSync(dir, owner.uid, owner.gid);
  const [primaryPort, standbyPort] = [await freePort(), await freePort()];
  const primaryDir = join(dir, 'primary');
  const standbyDir = join(dir, 'standby');
  const stopAll = async () => {
    // Immediate: the data is thrown away, so nothing needs a clean shutdown.
    for (const dataDir of [standbyDir, primaryDir])
      if (existsSync(join(dataDir, 'postmaster.pid')))
        await pgRun('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await pgRun('initdb', ['-D', primaryDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
    const primary = server(primaryPort, primaryDir, dir);
    await primary.start();
    await pgRun('pg_basebackup', [
      '-h',
      '127.0.0.1',
      '-p',
      String(primaryPort),
      '-U',
      'postgres',
      '-D',
      standbyDir,
      '-R',
      '-X',
      'stream',
      '--no-sync',
    ]);
    const standby = server(standbyPort, standbyDir, dir);
    await standby.start();
    return {
      primary,
      standby,
      standbyUrl(primaryUrl) {
        const url = new URL(primaryUrl);
        url.port = String(standbyPort);
        return url.toString();
      },
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
