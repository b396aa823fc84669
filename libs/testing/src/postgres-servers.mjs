// Plain ESM with its types beside it (postgres-servers.d.mts), so the benchmarks (plain .mjs over the built
// libraries) start the same servers as the specs.
import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** The newest installed PostgreSQL's bin directory (PG_BIN_DIR to choose another). */
function binDir() {
  if (process.env.PG_BIN_DIR) return process.env.PG_BIN_DIR;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((version) => existsSync(join(root, version, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length === 0) throw new Error('no PostgreSQL binaries under /usr/lib/postgresql: set PG_BIN_DIR');
  return join(root, versions[0], 'bin');
}

/** Runs a PostgreSQL program, as `postgres` when this process is root. */
async function pgRun(program, args) {
  const path = join(binDir(), program);
  const asRoot = process.getuid?.() === 0;
  try {
    await (asRoot ? run('runuser', ['-u', 'postgres', '--', path, ...args]) : run(path, args));
  } catch (error) {
    const failure = error;
    throw new Error(`${program} failed: ${failure.stderr || failure.message}`);
  }
}

async function postgresOwner() {
  if (process.getuid?.() !== 0) return null;
  const [{ stdout: uid }, { stdout: gid }] = await Promise.all([
    run('id', ['-u', 'postgres']),
    run('id', ['-g', 'postgres']),
  ]);
  return { uid: Number(uid.trim()), gid: Number(gid.trim()) };
}

/** The settings both servers start with: loopback only, a socket in their own directory, replication on. */
function serverOptions(port, dir) {
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

function server(port, dataDir, dir) {
  const url = (database) => `postgres://postgres@127.0.0.1:${port}/${database}`;
  const start = () =>
    pgRun('pg_ctl', ['-D', dataDir, '-o', serverOptions(port, dir), '-l', `${dataDir}.log`, '-w', 'start']);
  return {
    port,
    url,
    async query(text) {
      const client = new pg.Client({ connectionString: url('postgres') });
      await client.connect();
      try {
        return (await client.query(text)).rows;
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
export async function startPostgresReplication() {
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
